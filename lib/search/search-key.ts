/**
 * Words nearly every server name carries. They say nothing about which server is meant, and in trigram
 * similarity they make every "*-mcp-server" look alike, so the search key of a name part drops them
 * (`github-mcp-server` → `github`) and so does the full-text query.
 */
export const GENERIC_NAME_WORDS = ["mcp", "server", "servers"] as const;

const GENERIC = new RegExp(`\\b(${GENERIC_NAME_WORDS.join("|")})\\b`, "g");

/** The search key of a name part or query: lower-case words, generic ones dropped (as servers.search_key). */
export function searchKey(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, " ").replace(GENERIC, " ").replace(/\s+/g, " ").trim();
}

/** The same as an immutable SQL expression over `column`. */
export function searchKeySql(column: string): string {
  return `btrim(regexp_replace(regexp_replace(regexp_replace(lower(${column}), '[^a-z0-9]+', ' ', 'g'), '\\m(${GENERIC_NAME_WORDS.join("|")})\\M', ' ', 'g'), '\\s+', ' ', 'g'))`;
}

/** The first distinctive label of a namespace: the GitHub login of io.github.*, else the domain's name. */
export const OWNER_LABEL_SQL = `case when namespace like 'io.github.%' then substr(namespace, 11) else split_part(namespace, '.', 2) end`;

/**
 * servers.search_key: the name part's key, or, when the name part is only generic words (`com.notion/mcp`,
 * `com.figma.mcp/mcp`: about one server in ten, often a vendor's own), the owner label's key. That is the
 * name people type for such a server, typos included.
 */
export const SERVER_SEARCH_KEY_SQL = `coalesce(nullif(${searchKeySql("server_part")}, ''), ${searchKeySql(`(${OWNER_LABEL_SQL})`)})`;

/** Characters a search key is made of besides spaces (the one-edit neighbours of a query's key use them). */
export const SEARCH_KEY_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
