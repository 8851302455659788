/**
 * The lookalike key of a server name part: two names whose parts fold to the same
 * key read as the same name to a person skimming a list. Folding, in order:
 *
 *  1. case: lower-case;
 *  2. single-character homoglyphs: 0→o, 1 i | ! → l, and the Cyrillic and Greek
 *     letters drawn like Latin ones (Cyrillic а→a, е→e, о→o, р→p, …);
 *  3. letter pairs drawn like one letter: rn→m, vv→w;
 *  4. separators dropped: - _ . and white space.
 *
 * So `Weather_MCP`, `weather-mcp`, `weather.mcp` and `weathеr-mcp` (Cyrillic е)
 * all fold to `weathermcp`, and `s1ack`/`sIack`/`slack` to `slack`.
 *
 * The same folding is a stored generated column of `servers` (name_fold) computed
 * by Postgres from FOLD_NAME_SQL below, so the key can be looked up by index; the
 * JavaScript and SQL forms are built from one table and a test holds them equal
 * over every name of the shared snapshots.
 */

/** One character → its Latin lookalike (applied after lower-casing). */
export const HOMOGLYPHS: ReadonlyArray<readonly [string, string]> = [
  ["0", "o"],
  ["1", "l"],
  ["i", "l"],
  ["|", "l"],
  ["!", "l"],
  // Cyrillic
  ["а", "a"],
  ["с", "c"],
  ["ԁ", "d"],
  ["е", "e"],
  ["ё", "e"],
  ["һ", "h"],
  ["і", "l"],
  ["ӏ", "l"],
  ["ј", "j"],
  ["о", "o"],
  ["р", "p"],
  ["ԛ", "q"],
  ["ѕ", "s"],
  ["у", "y"],
  ["х", "x"],
  ["ԝ", "w"],
  // Greek
  ["α", "a"],
  ["ι", "l"],
  ["κ", "k"],
  ["ν", "v"],
  ["ο", "o"],
  ["ρ", "p"],
  ["υ", "u"],
  ["χ", "x"],
];

/** Pairs of letters that render like one letter, replaced after the single characters. */
export const HOMOGLYPH_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ["rn", "m"],
  ["vv", "w"],
];

/** Characters that separate words in a name part and are dropped. */
const SEPARATORS = /[-_.\s]+/g;
const SEPARATORS_SQL = "[-_.[:space:]]+";

const SINGLE = new Map(HOMOGLYPHS);

/** Steps 1–3 of the folding (case and homoglyphs), keeping separators: for splitting text into words. */
export function foldHomoglyphs(text: string): string {
  let s = "";
  for (const ch of text.toLowerCase()) s += SINGLE.get(ch) ?? ch;
  for (const [from, to] of HOMOGLYPH_PAIRS) s = s.split(from).join(to);
  return s;
}

/** The lookalike key of a name part (see the module comment). */
export function foldName(part: string): string {
  return foldHomoglyphs(part).replace(SEPARATORS, "");
}

/** The server part of a canonical name: everything after the first `/`. */
export function serverPartOf(name: string): string {
  return name.slice(name.indexOf("/") + 1);
}

const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;

/**
 * The same folding as an immutable SQL expression over `column` (lower, translate,
 * replace and regexp_replace are all immutable, so it can be a generated column).
 */
export function foldNameSql(column: string): string {
  const from = HOMOGLYPHS.map(([f]) => f).join("");
  const to = HOMOGLYPHS.map(([, t]) => t).join("");
  let expr = `translate(lower(${column}), ${quote(from)}, ${quote(to)})`;
  for (const [f, t] of HOMOGLYPH_PAIRS) expr = `replace(${expr}, ${quote(f)}, ${quote(t)})`;
  return `regexp_replace(${expr}, ${quote(SEPARATORS_SQL)}, '', 'g')`;
}
