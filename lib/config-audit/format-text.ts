/** What one text line needs of an audited entry. */
export interface TextLineEntry {
  verdict: string;
  key: string;
  server_name: string | null;
  reasons: { summary: string }[];
}

/** Tabs, line breaks and other control characters would break the line format: they become spaces. */
function field(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, " ").trim() || "-";
}

/**
 * DESIGN §9's text/plain form: one line per entry, `VERDICT<TAB>key<TAB>server_name or -<TAB>reason`,
 * each line ending in a newline. Used by the REST adapter and by the web page's "download as text".
 */
export function formatAuditText(entries: TextLineEntry[]): string {
  return entries
    .map((e) => `${e.verdict}\t${field(e.key)}\t${e.server_name ? field(e.server_name) : "-"}\t${field(e.reasons[0]?.summary ?? "")}\n`)
    .join("");
}
