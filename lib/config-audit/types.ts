// Shapes shared by the config-audit parser, classifier and resolver (docs/config-audit.md). Everything in
// lib/config-audit/ is pure: no database, no clock, no network.

/** The syntax a config file was read as. */
export type ConfigFormat = "json" | "jsonc" | "toml" | "yaml";

/**
 * Which layout was recognised. A client id (claude-desktop, cursor, vscode, …) when the file name says which
 * client reads the file; otherwise the layout of the map key found (`mcp-servers` for a top-level mcpServers
 * map that many clients share, `vscode` for `servers`, `zed` for `context_servers`, …); `none` when the file
 * parsed but holds no server map.
 */
export type LayoutId =
  | "claude-desktop"
  | "claude-code"
  | "claude-code-user"
  | "claude-code-plugin"
  | "cursor"
  | "vscode"
  | "vscode-user"
  | "vscode-settings"
  | "github-copilot"
  | "windsurf"
  | "codex"
  | "gemini"
  | "zed"
  | "continue"
  | "cline"
  | "roo"
  | "kiro"
  | "mcp-servers"
  | "none";

/** One server entry as the file states it, before any interpretation of its command line. */
export interface ConfigEntry {
  /** The user's label (map key, or `name` of a Continue list item); never an identity. */
  key: string;
  /** Where the entry sits, e.g. `mcpServers`, `servers`, `mcp_servers`, `projects["/p"].mcpServers`. */
  mapKey: string;
  /** The layout the file was read as (the client, when the file name names one): some clients read fields differently. */
  layout: LayoutId;
  /**
   * false when the recognised client does not read this map (e.g. `mcpServers` in a VS Code mcp.json), or
   * does not connect this entry (a remote entry in Claude Desktop's file).
   */
  honoured: boolean;
  /** `disabled: true`, or `enabled: false` where the client reads `enabled` (Codex, Zed, or an unknown client): still audited, but flagged. */
  disabled: boolean;
  /** The launch command as written (string commands only). */
  command: string | null;
  /** Launch arguments; non-string items are dropped. */
  args: string[];
  /** The remote endpoint (`url`, `serverUrl` or `httpUrl`), as written. */
  url: string | null;
  /** Which field held the URL. */
  urlField: "url" | "serverUrl" | "httpUrl" | null;
  /** The declared transport (`type`, `transportType`), lower-case, when one is given. */
  transport: string | null;
  /** A Zed extension-provided context server (no command, no url): the key is the extension id. */
  extension: boolean;
  /** VS Code / Copilot gallery installs carry a `gallery` field and the registry name as the key. */
  gallery: boolean;
  /** Package registries and indexes the entry's `env` points its launcher at; nothing else of `env` is kept. */
  packageSources?: PackageSources;
}

/**
 * Where the entry's environment tells package managers to fetch from: `npm_config_registry` (npm, pnpm, bun, deno) and a scope's
 * `npm_config_@scope:registry`,
 * `UV_INDEX_URL`, `UV_DEFAULT_INDEX`, `UV_INDEX`, `UV_EXTRA_INDEX_URL`, `UV_FIND_LINKS`, `PIP_INDEX_URL`, … (uv, pipx).
 */
export interface PackageSources {
  npm: string | null;
  /** A scope's own registry (`npm_config_@acme:registry`), by lower-case scope: npm fetches that scope's packages from it. */
  npmScopes: Record<string, string>;
  pypi: string[];
}

export interface ParsedConfig {
  format: ConfigFormat;
  layout: LayoutId;
  /** Every map the entries were read from, in file order (the honoured one first when the client is known). */
  mapKeys: string[];
  entries: ConfigEntry[];
}

/** What an entry runs or connects to, as far as the file alone tells. */
export type IdentityKind =
  | "remote" // a remote MCP endpoint (directly or through a bridge such as mcp-remote)
  | "jspkg" // an npm package run by npx, bunx, pnpm dlx, yarn dlx, …
  | "pypkg" // a PyPI distribution run by uvx, pipx run, python -m, …
  | "oci" // a container image run by docker/podman
  | "smithery" // a Smithery qualified name run through @smithery/cli
  | "name" // nothing launched; the key is a canonical registry name
  | "local" // a local file, script, binary, socket or loopback endpoint
  | "other"; // something else: a bare program on PATH, a package URL, a git source, an aggregator, …

export type Confidence = "high" | "medium" | "low";

/** Why an entry cannot be tied to a catalog server (reason codes of UNKNOWN verdicts). */
export type UnresolvedCode =
  | "local_path"
  | "loopback_url"
  | "local_socket"
  | "placeholder"
  | "not_in_catalog"
  | "not_a_registry_artifact"
  | "unknown_option"
  | "key_mismatch"
  | "no_launch"
  | "invalid_url";

export interface EntryIdentity {
  kind: IdentityKind;
  /** The package name, normalised image, URL (secrets redacted), path, program or name; null when none. */
  identifier: string | null;
  /** The requested version / tag / spec (`latest`, `1.2.3`, `^1`), when the launch names one. */
  version: string | null;
  confidence: Confidence;
  /** Wrappers peeled to reach the launch, outermost first (`cmd /c`, `bash -c`, `mcp-remote`, …). */
  wrappers: string[];
  /** Set when the file alone shows the entry cannot resolve (local path, loopback URL, placeholder, …). */
  unresolvable: { code: UnresolvedCode; summary: string } | null;
  /** A note for the reader (the package an installed copy seems to be, a transport contradiction, …). */
  note: string | null;
  /**
   * Packages the launch installs beside the server's (`npx -p X -p pkg`, `uvx --with X`), whose code runs too
   * (install scripts, import hooks): the catalog's verdict is about the server's package alone. Absent when none.
   */
  extras?: string[];
}

/** How a resolved entry was tied to its catalog server. */
export type ResolvedBy = "remote_url" | "jspkg" | "pypkg" | "oci" | "name";

export interface EntryResolution {
  entry: ConfigEntry;
  identity: EntryIdentity;
  /** The catalog server, or null (UNKNOWN). */
  serverName: string | null;
  resolvedBy: ResolvedBy | null;
  /** What the match was made on (URL, package, image, name), or the entry's identity when unresolved. */
  identifier: string | null;
  confidence: Confidence | null;
  /** Other listed servers that matched equally, when the match was ambiguous. */
  alternatives: string[];
  /** Several listed servers match and the key names none of them: `serverName` is a guess among them. */
  ambiguous: boolean;
  /** Why the entry is unresolved (null when resolved). */
  unresolved: { code: UnresolvedCode; summary: string } | null;
  /** Notes on the match itself (a key naming another server, a path-prefix URL match, …). */
  notes: string[];
}
