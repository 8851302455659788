import { createHash } from "node:crypto";
import { storableJson } from "@/lib/db/storable-text";
import { parseUpstreamTime } from "@/lib/sources/upstream-time";

/**
 * One server version as the registry lists it, flattened from either API era:
 *  - 2025-09 "flat" objects: the server.json fields at top level, `status` inline,
 *    `_meta[official]` with serverId/versionId and camel- or snake-case times;
 *  - the current `{server, _meta}` envelope with status inside `_meta[official]`.
 */
export interface RegistryEntry {
  name: string;
  namespace: string;
  serverPart: string;
  /** May be "": some early registry rows had an empty version. */
  version: string;
  isLatest: boolean;
  status: string | null;
  statusMessage: string | null;
  statusChangedAt: Date | null;
  publishedAt: Date | null;
  updatedAt: Date | null;
  schemaUrl: string | null;
  specEra: string | null;
  title: string | null;
  description: string | null;
  websiteUrl: string | null;
  repository: { url: string; source: string | null; id: string | null; subfolder: string | null } | null;
  packages: NormalizedPackage[];
  remotes: { type: string; url: string }[];
  /** The server.json document without registry-managed metadata. */
  document: Record<string, unknown>;
  contentHash: string;
}

export interface NormalizedPackage {
  ecosystem: string;
  registryType: string;
  registryBaseUrl: string | null;
  identifier: string;
  version: string | null;
  runtimeHint: string | null;
  transportType: string | null;
}

const OFFICIAL_META = "io.modelcontextprotocol.registry/official";

/** Registry package types mapped to the ecosystem words used in facts and reasons (DESIGN §3). */
const ECOSYSTEM_BY_REGISTRY_TYPE: Record<string, string> = {
  npm: "jspkg",
  pypi: "pypkg",
  oci: "oci",
  docker: "oci",
  nuget: "nuget",
  mcpb: "mcpb",
};

/** The ecosystems a listed package is filed under when its registry type is one the catalog knows. */
export const KNOWN_ECOSYSTEMS: readonly string[] = [...new Set(Object.values(ECOSYSTEM_BY_REGISTRY_TYPE))];

export class RegistryEntryError extends Error {}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === "string" && v.length > 0 ? v : null);

const date = parseUpstreamTime;

/** "https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json" → "2025-09-29". */
export function specEraOf(schemaUrl: string | null): string | null {
  const m = schemaUrl?.match(/\/schemas\/(\d{4}-\d{2}-\d{2})\//);
  return m ? m[1] : null;
}

function normalizeRepository(v: unknown): RegistryEntry["repository"] {
  if (!isObj(v)) return null;
  const url = str(v.url)?.trim();
  if (!url) return null;
  return { url, source: str(v.source), id: str(v.id) ?? (typeof v.id === "number" ? String(v.id) : null), subfolder: str(v.subfolder) };
}

/**
 * A listing's artifacts as a list, absent meaning none. A value that is no list, or an item we cannot read, is a
 * bad row rather than "no packages": stored as none, the package rules (missing, deprecated, advisories) would
 * have nothing to check and the server could PASS on what it does not show.
 */
function listOf(v: unknown, what: string, name: string): unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new RegistryEntryError(`entry ${name}: ${what} is not a list`);
  return v;
}

function normalizePackages(v: unknown, name: string): NormalizedPackage[] {
  const out: NormalizedPackage[] = [];
  for (const [i, p] of listOf(v, "packages", name).entries()) {
    // snake_case is the 2025-07-09 schema; camelCase everything since 2025-09-16
    const registryType = isObj(p) ? (str(p.registryType) ?? str(p.registry_type) ?? str(p.registry_name)) : null;
    const identifier = isObj(p) ? (str(p.identifier) ?? str(p.name)) : null;
    if (!isObj(p) || !registryType || !identifier) throw new RegistryEntryError(`entry ${name}: package ${i + 1} names no registry type or identifier`);
    const transport = isObj(p.transport) ? p.transport : null;
    out.push({
      ecosystem: ECOSYSTEM_BY_REGISTRY_TYPE[registryType.toLowerCase()] ?? registryType.toLowerCase(),
      registryType,
      registryBaseUrl: str(p.registryBaseUrl) ?? str(p.registry_base_url),
      identifier,
      version: str(p.version),
      runtimeHint: str(p.runtimeHint) ?? str(p.runtime_hint),
      transportType: transport ? str(transport.type) : null,
    });
  }
  return out;
}

function normalizeRemotes(v: unknown, name: string): RegistryEntry["remotes"] {
  const out: RegistryEntry["remotes"] = [];
  for (const [i, r] of listOf(v, "remotes", name).entries()) {
    const type = isObj(r) ? (str(r.type) ?? str(r.transport_type)) : null;
    const url = isObj(r) ? str(r.url) : null;
    if (!type || !url) throw new RegistryEntryError(`entry ${name}: remote ${i + 1} names no type or URL`);
    out.push({ type, url });
  }
  return out;
}

/** Stable JSON for hashing: object keys sorted at every depth. */
function stableStringify(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableStringify).join(",")}]`;
  if (isObj(v)) {
    return `{${Object.keys(v)
      .sort()
      .filter((k) => v[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stableStringify(v[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(v) ?? "null";
}

/**
 * Whitespace, control and format characters (line and paragraph separators, bidi controls, zero-width ones), and
 * U+FFFD: what stands where a NUL or a lone surrogate was (storableJson, and the crawl's answers already).
 */
const UNPRINTABLE_IN_NAME = /[\s\p{Cc}\p{Cf}\p{Z}\uFFFD]/u;

/**
 * Longest value of a field the catalog indexes (name, version, package registry type, identifier and version, remote
 * and repository URLs): a btree index entry holds at most 2,704 bytes, and one longer value failed the write of the
 * whole listing, every crawl. Real listings stay under 150 bytes; the registry's own limits are 200 to 255.
 */
export const MAX_KEY_BYTES = 1_000;
/** The longest server name any API input takes (interface.md, Limits; the official registry allows 200). */
const NAME_MAX = 300;
/** Longest title and description: their full-text vectors must stay under 1 MB (the registry allows 100 characters). */
export const MAX_TEXT_CHARS = 100_000;

function refuseOversized(e: Omit<RegistryEntry, "contentHash">): void {
  const keys: [string, string | null | undefined][] = [
    ["name", e.name],
    ["version", e.version],
    ["repository URL", e.repository?.url],
    ...e.packages.flatMap((p, i): [string, string | null][] => [
      // an unknown registry type is the package's ecosystem, indexed with its identifier
      [`package ${i + 1} registry type`, p.registryType],
      [`package ${i + 1} identifier`, p.identifier],
      [`package ${i + 1} version`, p.version],
    ]),
    ...e.remotes.map((r, i): [string, string] => [`remote ${i + 1} URL`, r.url]),
  ];
  const name = e.name.length > 100 ? `${e.name.slice(0, 100)}…` : e.name;
  for (const [what, v] of keys) {
    if (v && Buffer.byteLength(v) > MAX_KEY_BYTES) throw new RegistryEntryError(`entry ${name}: ${what} is over ${MAX_KEY_BYTES} bytes`);
  }
  for (const [what, v] of [["title", e.title], ["description", e.description]] as const) {
    if (v && v.length > MAX_TEXT_CHARS) throw new RegistryEntryError(`entry ${name}: ${what} is over ${MAX_TEXT_CHARS} characters`);
  }
}

export function normalizeRegistryEntry(input: unknown): RegistryEntry {
  if (!isObj(input)) throw new RegistryEntryError("entry is not an object");
  // Postgres refuses a NUL in text and jsonb, and a lone surrogate in jsonb: one in any field of one entry failed
  // the write of the whole listing, every crawl. They are stored as U+FFFD (a name holding one is refused, below);
  // the content hash is of what is stored, so the next crawl of the same entry changes nothing.
  const raw = storableJson(input);
  const envelope = isObj(raw.server);
  const server: Obj = envelope ? (raw.server as Obj) : raw;
  const outerMeta = isObj(raw._meta) ? raw._meta : {};
  const official: Obj = isObj(outerMeta[OFFICIAL_META]) ? (outerMeta[OFFICIAL_META] as Obj) : {};

  const name = str(server.name);
  // Real September 2025 rows carry `"version": ""`; they are still listings, keyed by the empty version.
  // A version that is no string at all is a bad row, not that empty version (it would become the latest one).
  const detail = isObj(server.version_detail) ? server.version_detail.version : undefined;
  const version = typeof server.version === "string" ? server.version : typeof detail === "string" ? detail : null;
  if (!name) throw new RegistryEntryError("entry has no name");
  if (version === null) throw new RegistryEntryError(`entry ${name} has no version string`);
  // Names are printed raw in one-line formats (the CATALOG-STAMP/1 line, the audit's text lines) and on pages:
  // a line break could forge a second stamp line, a space adds a field, a bidi control makes the name read as
  // another. The official registry's pattern is ASCII and allows none of them; a dump could.
  if (UNPRINTABLE_IN_NAME.test(name)) throw new RegistryEntryError(`entry name ${JSON.stringify(name)} holds whitespace or control characters`);
  // a longer name would be listed, searched and shown, yet never looked up, preflighted or watched
  if (name.length > NAME_MAX) throw new RegistryEntryError(`entry name ${name.slice(0, 40)}… is longer than ${NAME_MAX} characters`);
  const slash = name.indexOf("/");
  if (slash <= 0 || slash === name.length - 1) throw new RegistryEntryError(`entry name ${name} is not namespace/name`);

  // The document is server.json as published; registry-managed metadata is kept apart.
  const document: Obj = {};
  for (const [k, v] of Object.entries(server)) {
    if (!envelope && (k === "status" || k === "_meta")) continue;
    document[k] = v;
  }
  if (!envelope && isObj(server._meta)) {
    const publisherMeta = Object.fromEntries(Object.entries(server._meta).filter(([k]) => k !== OFFICIAL_META));
    if (Object.keys(publisherMeta).length) document._meta = publisherMeta;
  }

  const schemaUrl = str(server.$schema);
  const status = envelope ? str(official.status) : (str(server.status) ?? str(official.status));
  const entry: Omit<RegistryEntry, "contentHash"> = {
    name,
    namespace: name.slice(0, slash),
    serverPart: name.slice(slash + 1),
    version,
    isLatest: official.isLatest === true || official.is_latest === true,
    status,
    statusMessage: str(official.statusMessage),
    statusChangedAt: date(official.statusChangedAt),
    publishedAt: date(official.publishedAt ?? official.published_at),
    updatedAt: date(official.updatedAt ?? official.updated_at),
    schemaUrl,
    specEra: specEraOf(schemaUrl),
    title: str(server.title),
    description: str(server.description),
    websiteUrl: str(server.websiteUrl) ?? str(server.website_url),
    repository: normalizeRepository(server.repository),
    packages: normalizePackages(server.packages, name),
    remotes: normalizeRemotes(server.remotes, name),
    document,
  };
  refuseOversized(entry);
  const contentHash = createHash("sha256")
    .update(
      stableStringify({
        document,
        isLatest: entry.isLatest,
        status: entry.status,
        statusMessage: entry.statusMessage,
        statusChangedAt: entry.statusChangedAt?.toISOString() ?? null,
        publishedAt: entry.publishedAt?.toISOString() ?? null,
        updatedAt: entry.updatedAt?.toISOString() ?? null,
      }),
    )
    .digest("hex");
  return { ...entry, contentHash };
}

/** The list of entries and the next cursor of a list page or dump, in either era. */
export function readListPage(body: unknown): { entries: unknown[]; nextCursor: string | null } {
  if (Array.isArray(body)) return { entries: body, nextCursor: null };
  if (!isObj(body) || !Array.isArray(body.servers)) {
    throw new RegistryEntryError("registry list body has no servers array");
  }
  const meta = isObj(body.metadata) ? body.metadata : {};
  return { entries: body.servers, nextCursor: str(meta.nextCursor) ?? str(meta.next_cursor) };
}
