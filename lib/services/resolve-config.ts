import { ApiError } from "@/lib/api/errors";
import { AUDIT_MAX_ENTRIES_KEYED } from "@/lib/config";
import {
  buildCatalogIndex,
  catalogQueryFor,
  classifyEntries,
  ConfigParseError,
  parseConfig,
  resolveEntries,
  type EntryResolution,
  type ParsedConfig,
} from "@/lib/config-audit";
import type { Queryable } from "@/lib/db/client";
import type { ResolveEntry, ResolveResult } from "@/lib/schemas/config-audit";
import { log } from "@/lib/log";
import { lookupCatalogServers } from "./lookup-catalog-servers";

export interface ConfigInput {
  /** The whole config file as text. */
  text: string;
  /** Optional file name or path: picks the syntax by extension and names the client. */
  filename?: string | null;
}

/** Parses a config body; a file that cannot be read is a 400 whose message names the line and column. */
export function parseConfigOrThrow(input: ConfigInput): ParsedConfig {
  try {
    return parseConfig(input.text, input.filename);
  } catch (err) {
    if (err instanceof ConfigParseError) {
      throw new ApiError("invalid_request", `the config file cannot be read: ${err.message}`);
    }
    // a parser bug or a hostile body must still be the caller's 400, never a 500; the log keeps the bug visible
    if (err instanceof RangeError || err instanceof TypeError || err instanceof SyntaxError) {
      log.warn("config parser failed unexpectedly", { error: err.message, filename: input.filename ?? null, bytes: input.text.length });
      throw new ApiError("invalid_request", "the config file cannot be read: it is not a JSON, JSON-with-comments, TOML or YAML MCP config (line 1, column 1)");
    }
    throw err;
  }
}

/** More entries than the caller may send in one config → 413 (documented in docs/config-audit.md). */
export function checkEntryLimit(parsed: ParsedConfig, limit: number, hint: string): void {
  if (parsed.entries.length > limit) {
    throw new ApiError("payload_too_large", `the config has ${parsed.entries.length} server entries; ${hint}`);
  }
}

/** Classification, one batched catalog look-up, and resolution of every entry. */
export async function resolveParsedConfig(db: Queryable, parsed: ParsedConfig): Promise<EntryResolution[]> {
  const classified = classifyEntries(parsed.entries);
  const hits = await lookupCatalogServers(db, catalogQueryFor(classified));
  return resolveEntries(classified, buildCatalogIndex(hits));
}

/** The fields of an entry that the resolve and audit responses share. */
export function resolutionFields(r: EntryResolution): Omit<ResolveEntry, "unresolved"> {
  return {
    key: r.entry.key,
    map_key: r.entry.mapKey,
    honoured: r.entry.honoured,
    disabled: r.entry.disabled,
    kind: r.identity.kind,
    server_name: r.serverName,
    resolved_by: r.resolvedBy,
    identifier: r.identifier,
    version: r.identity.version,
    confidence: r.confidence,
    wrappers: r.identity.wrappers,
    alternatives: r.alternatives,
    notes: r.notes,
  };
}

/**
 * POST /v1/resolve: the audit's parsing and resolution, without verdicts; unmetered. Every caller may send
 * up to the keyed audit's entry limit (AUDIT_MAX_ENTRIES_KEYED).
 */
export async function resolveConfig(db: Queryable, input: ConfigInput): Promise<ResolveResult> {
  const parsed = parseConfigOrThrow(input);
  checkEntryLimit(parsed, AUDIT_MAX_ENTRIES_KEYED, `resolve takes at most ${AUDIT_MAX_ENTRIES_KEYED}`);
  const resolutions = await resolveParsedConfig(db, parsed);
  const entries = resolutions.map((r) => ({ ...resolutionFields(r), unresolved: r.unresolved }));
  const resolved = entries.filter((e) => e.server_name !== null).length;
  return {
    ok: true,
    format: parsed.format,
    layout: parsed.layout,
    map_keys: parsed.mapKeys,
    entries,
    counts: { resolved, unresolved: entries.length - resolved, total: entries.length },
  };
}
