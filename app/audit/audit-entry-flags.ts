/** What the flags of one audited entry need: where it sits and whether its client uses it. */
export interface FlaggedEntry {
  honoured: boolean;
  disabled: boolean;
  map_key: string;
}

/**
 * The flags the audit table shows beside an entry's key. `honoured: false` has two causes
 * (lib/config-audit/find-entries.ts): the entry sits in a map the client does not read, or it is a URL entry in
 * Claude Desktop's file, whose `mcpServers` the client does read but whose remote entries it never connects.
 * Saying "which this client ignores" of Claude Desktop's own map would be false.
 */
export function auditEntryFlags(entry: FlaggedEntry, layout: string): string[] {
  const flags: string[] = [];
  if (!entry.honoured) {
    flags.push(
      layout === "claude-desktop" && entry.map_key === "mcpServers"
        ? "a remote server, which Claude Desktop does not connect from this file"
        : `in ${entry.map_key}, which this client ignores`,
    );
  }
  if (entry.disabled) flags.push("disabled");
  return flags;
}
