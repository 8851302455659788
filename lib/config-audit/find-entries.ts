import { HONOURED_MAP_KEYS } from "./client-layouts";
import type { ConfigEntry, LayoutId, PackageSources } from "./types";

type Obj = Record<string, unknown>;
/** Plain objects only: TOML dates and other class instances are values, not tables. */
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && Object.prototype.toString.call(v) === "[object Object]";

/** A server map or entry of the wrong type; `path` locates it in the document (for the line and column). */
export class ConfigShapeError extends Error {
  constructor(
    message: string,
    readonly path: (string | number)[],
  ) {
    super(message);
  }
}

function typeName(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (v instanceof Date) return "a date";
  // YAML's !!binary, !!set and the like read as objects that are not maps
  if (ArrayBuffer.isView(v)) return "binary data";
  if (typeof v === "object") return isObj(v) ? "an object" : `a ${Object.prototype.toString.call(v).slice(8, -1)}`;
  return `a ${typeof v}`;
}

/** A known map key holding something other than a map (or Continue's list) is a broken config, not an empty one. */
function expectMap(value: unknown, path: (string | number)[], allowList = false): void {
  if (value === undefined || isObj(value) || (allowList && Array.isArray(value))) return;
  throw new ConfigShapeError(`${path.join(".")} must be ${allowList ? "an object or a list" : "an object"} of servers, not ${typeName(value)}`, path);
}
const str = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v : null);

/** A server map found in the document: where it is, and its entries as [label, value] pairs. */
interface FoundMap {
  mapKey: string;
  /** Where the map is in the document. */
  path: (string | number)[];
  /** The layout this map alone suggests, used when the file name names no client. */
  layout: LayoutId;
  /** The pattern HONOURED_MAP_KEYS uses for this map. */
  pattern: string;
  /** [label, value, list index (Continue lists only)] */
  items: [string, unknown, number?][];
}

/**
 * The clients whose on/off flag is `enabled` (layouts reference §1). Others do not read it (Claude Code lists
 * `enabled` among the keys it ignores, §2.2), so `enabled: false` there leaves the server running. When the
 * file name names no client, `enabled: false` is still read as off: some client reading the file may honour it.
 */
const ENABLED_FLAG_LAYOUTS: ReadonlySet<LayoutId> = new Set(["codex", "zed"]);

/**
 * The server maps of a parsed config and their entries. Servers are read only from the keys MCP clients
 * actually use, at the level they use them: top-level `mcpServers` (a map, or Continue's list),
 * `servers` (VS Code), `mcp.servers` (VS Code settings.json), `context_servers` (Zed), `mcp_servers`
 * (Codex TOML tables), `projects.<path>.mcpServers` (Claude Code ~/.claude.json),
 * `experimental.modelContextProtocolServers` (Continue's legacy config.json), and a Claude Code plugin's
 * unwrapped top-level map. A `command` anywhere else (hooks, formatters, task lists, ACP agents) is not a
 * server.
 *
 * `client` is the client the file name points to; without one the layout is the most specific map found.
 * Entries of a map the client does not read are kept, with `honoured: false`; so are remote entries in
 * Claude Desktop's file, which that client does not connect.
 */
export function findEntries(doc: Obj, client: LayoutId | null): { layout: LayoutId; mapKeys: string[]; entries: ConfigEntry[] } {
  const maps = findMaps(doc);
  let layout: LayoutId = client ?? maps[0]?.layout ?? "none";
  if (client === "claude-code" && maps.length === 1 && maps[0].layout === "claude-code-plugin") layout = "claude-code-plugin";
  const honouredPatterns = HONOURED_MAP_KEYS[layout] ?? [];
  const honoured = (m: FoundMap) => honouredPatterns.includes(m.pattern);
  // the map the client reads comes first
  const ordered = [...maps.filter(honoured), ...maps.filter((m) => !honoured(m))];
  const entries: ConfigEntry[] = [];
  const readsEnabled = client === null || ENABLED_FLAG_LAYOUTS.has(layout);
  for (const m of ordered) {
    const ctx = { map: m, honoured: honoured(m), layout, readsEnabled };
    for (const [key, value, index] of m.items) entries.push(toEntry(key, value, ctx, [...m.path, index ?? key]));
  }
  return { layout, mapKeys: ordered.map((m) => m.mapKey), entries };
}

function findMaps(doc: Obj): FoundMap[] {
  expectMap(doc.mcpServers, ["mcpServers"], true);
  expectMap(doc.servers, ["servers"]);
  expectMap(doc.context_servers, ["context_servers"]);
  expectMap(doc.mcp_servers, ["mcp_servers"]);
  if (isObj(doc.mcp)) expectMap(doc.mcp.servers, ["mcp", "servers"]);
  const maps: FoundMap[] = [];
  const projects = doc.projects;
  if (isObj(projects)) {
    for (const [path, project] of Object.entries(projects)) {
      if (isObj(project)) expectMap(project.mcpServers, ["projects", path, "mcpServers"]);
      if (isObj(project) && isObj(project.mcpServers)) {
        maps.push({
          mapKey: `projects[${JSON.stringify(path)}].mcpServers`,
          path: ["projects", path, "mcpServers"],
          layout: "claude-code-user",
          pattern: "projects.*.mcpServers",
          items: Object.entries(project.mcpServers),
        });
      }
    }
  }
  if (isObj(doc.servers)) maps.push({ mapKey: "servers", path: ["servers"], layout: "vscode", pattern: "servers", items: Object.entries(doc.servers) });
  if (isObj(doc.mcp) && isObj(doc.mcp.servers)) {
    maps.push({ mapKey: "mcp.servers", path: ["mcp", "servers"], layout: "vscode-settings", pattern: "mcp.servers", items: Object.entries(doc.mcp.servers) });
  }
  if (isObj(doc.context_servers)) {
    maps.push({ mapKey: "context_servers", path: ["context_servers"], layout: "zed", pattern: "context_servers", items: Object.entries(doc.context_servers) });
  }
  if (isObj(doc.mcp_servers)) maps.push({ mapKey: "mcp_servers", path: ["mcp_servers"], layout: "codex", pattern: "mcp_servers", items: Object.entries(doc.mcp_servers) });
  if (Array.isArray(doc.mcpServers)) {
    maps.push({ mapKey: "mcpServers", path: ["mcpServers"], layout: "continue", pattern: "mcpServers", items: listItems(doc.mcpServers) });
  }
  const experimental = isObj(doc.experimental) ? doc.experimental.modelContextProtocolServers : undefined;
  if (Array.isArray(experimental)) {
    maps.push({
      mapKey: "experimental.modelContextProtocolServers",
      path: ["experimental", "modelContextProtocolServers"],
      layout: "continue",
      pattern: "experimental.modelContextProtocolServers",
      items: listItems(experimental),
    });
  }
  if (isObj(doc.mcpServers)) {
    // a file with a `projects` map is ~/.claude.json, whose top-level mcpServers is the user scope
    const layout: LayoutId = maps.some((m) => m.layout === "claude-code-user") ? "claude-code-user" : "mcp-servers";
    maps.push({ mapKey: "mcpServers", path: ["mcpServers"], layout, pattern: "mcpServers", items: Object.entries(doc.mcpServers) });
  }
  if (!maps.length && looksUnwrapped(doc)) {
    maps.push({ mapKey: "(top level)", path: [], layout: "claude-code-plugin", pattern: "(top level)", items: Object.entries(doc) });
  }
  // the most specific layout first: ~/.claude.json, then VS Code, Zed, Codex, Continue, the shared mcpServers map
  const rank: LayoutId[] = ["claude-code-user", "vscode", "vscode-settings", "zed", "codex", "continue", "mcp-servers", "claude-code-plugin"];
  return maps.sort((a, b) => rank.indexOf(a.layout) - rank.indexOf(b.layout));
}

/** Continue lists servers as items with a `name` (legacy items name nothing: they are numbered). */
function listItems(list: unknown[]): [string, unknown, number][] {
  return list.map((item, i) => [(isObj(item) && str(item.name)) || `#${i + 1}`, item, i]);
}

/** A plugin's `.mcp.json` may hold the server map itself: every top-level value is an entry. */
function looksUnwrapped(doc: Obj): boolean {
  const values = Object.values(doc);
  return values.length > 0 && values.every((v) => isObj(v) && (str(v.command) !== null || str(v.url) !== null || str(v.serverUrl) !== null || str(v.httpUrl) !== null));
}

function checkField(obj: Obj, field: string, path: (string | number)[], ok: (v: unknown) => boolean, want: string): void {
  const v = obj[field];
  if (v === undefined || v === null || ok(v)) return;
  // a list with something else in it: name the item, not "an array" (which is what was asked for)
  const list: unknown[] = ok === isStringList && Array.isArray(v) ? v : [];
  const item = list.findIndex((a) => typeof a !== "string");
  if (item >= 0) {
    throw new ConfigShapeError(`${[...path, field].map(String).join(".")} must be ${want}; item ${item} is ${typeName(list[item])}`, [...path, field, item]);
  }
  throw new ConfigShapeError(`${[...path, field].map(String).join(".")} must be ${want}, not ${typeName(v)}`, [...path, field]);
}

/** The launch arguments (checked to be a list of strings, as every client requires). */
function argList(v: unknown): string[] {
  return Array.isArray(v) ? (v as string[]) : [];
}

const isStringList = (v: unknown) => Array.isArray(v) && v.every((a) => typeof a === "string");

/** How the map an entry sits in is read: whether the client reads it, as which layout, and whether `enabled` counts. */
interface EntryContext {
  map: FoundMap;
  honoured: boolean;
  layout: LayoutId;
  readsEnabled: boolean;
}

function toEntry(key: string, value: unknown, ctx: EntryContext, path: (string | number)[]): ConfigEntry {
  const { layout } = ctx;
  const mapKey = ctx.map.mapKey;
  if (!isObj(value)) throw new ConfigShapeError(`the server entry ${JSON.stringify(key)} in ${mapKey} must be an object, not ${typeName(value)}`, path);
  const e: Obj = value;
  // Continue's legacy items and Zed's legacy form nest the launch one level down
  const launch: Obj = isObj(e.transport) ? e.transport : e;
  const launchPath = launch === e ? path : [...path, "transport"];
  checkField(launch, "command", launchPath, (v) => typeof v === "string" || (isObj(v) && (v.path === undefined || typeof v.path === "string")), "a string");
  // a bare string or a number would be read as some other package than the client runs (or none): refused
  checkField(launch, "args", launchPath, isStringList, "a list of strings");
  if (isObj(launch.command)) checkField(launch.command, "args", [...launchPath, "command"], isStringList, "a list of strings");
  for (const f of ["url", "serverUrl", "httpUrl"]) checkField(launch, f, launchPath, (v) => typeof v === "string", "a string");
  let command = str(launch.command);
  let args = argList(launch.args);
  if (isObj(launch.command)) {
    command = str(launch.command.path) ?? str(launch.command.command);
    args = argList(launch.command.args);
  }
  // Gemini reads httpUrl before url; Windsurf documents serverUrl
  const urlField = str(launch.httpUrl) ? "httpUrl" : str(launch.url) ? "url" : str(launch.serverUrl) ? "serverUrl" : null;
  const url = urlField ? (launch[urlField] as string).trim() : null;
  const transport = str(launch.type) ?? str(e.transportType) ?? null;
  return {
    key,
    mapKey,
    layout,
    // Claude Desktop connects only local (stdio) servers from its file; remote ones must be added as connectors
    honoured: ctx.honoured && !(layout === "claude-desktop" && url !== null && !command),
    disabled: e.disabled === true || (ctx.readsEnabled && e.enabled === false),
    command: command?.trim() ?? null,
    args,
    url,
    urlField,
    transport: transport ? transport.toLowerCase() : null,
    extension: !command && !url && (layout === "zed" || mapKey === "context_servers"),
    gallery: typeof e.gallery === "string" || e.gallery === true,
    packageSources: packageSources(isObj(launch.command) && isObj(launch.command.env) ? launch.command.env : isObj(launch.env) ? launch.env : {}),
  };
}

/** The registry and index variables of an entry's `env` (npm reads `npm_config_*` in any case, a scope's registry too). */
function packageSources(env: Obj): PackageSources {
  let npm: string | null = null;
  const npmScopes: Record<string, string> = {};
  const pypi: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (typeof value !== "string") continue;
    const scope = /^npm_config_(@[^:/\s]+):registry$/i.exec(name);
    if (scope) npmScopes[scope[1].toLowerCase()] = value;
    else if (/^npm_config_registry$/i.test(name) || name === "BUN_CONFIG_REGISTRY" || name === "YARN_NPM_REGISTRY_SERVER") npm = value;
    else if (/^(UV_(INDEX_URL|DEFAULT_INDEX|INDEX|EXTRA_INDEX_URL|FIND_LINKS)|PIP_(INDEX_URL|EXTRA_INDEX_URL|FIND_LINKS))$/.test(name)) {
      pypi.push(...value.split(/\s+/).filter(Boolean));
    }
  }
  return { npm, npmScopes, pypi };
}
