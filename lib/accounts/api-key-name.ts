/**
 * A key's name as it is kept and shown: any run of whitespace or control characters (a pasted tab or line break,
 * which a one-line table cell would not show) is one space, the ends trimmed, the text in NFC so a name typed on
 * two systems is one spelling. Empty means no name. The length rule (lib/schemas/api-key.ts) counts this result.
 */
export function normalizeApiKeyName(raw: string): string {
  return raw.normalize("NFC").replace(/[\s\p{Cc}]+/gu, " ").trim();
}
