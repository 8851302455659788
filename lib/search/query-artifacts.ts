import { normalizeRepositoryUrl } from "@/lib/catalog/repository-url";

/** Quote pairs a name arrives in when copied from a JSON config, a README's code span or a chat message. */
const WRAPPERS: ReadonlyArray<readonly [string, string]> = [
  ['"', '"'],
  ["'", "'"],
  ["`", "`"],
  ["<", ">"],
  ["“", "”"],
  ["‘", "’"],
  ["«", "»"],
];

/**
 * The query as it is matched: one pair of quotes (or backticks, angle brackets) around the whole text taken off,
 * so that `"io.github.acme/x"` is the exact name it quotes, not a similar one tied with its lookalikes. A quote
 * inside the text (`"weather" forecasts`) is left as it is.
 */
export function unwrapQuery(q: string): string {
  for (const [open, close] of WRAPPERS) {
    if (q.length > open.length + close.length && q.startsWith(open) && q.endsWith(close)) {
      const inner = q.slice(open.length, q.length - close.length).trim();
      if (inner && !inner.includes(open) && !inner.includes(close)) return inner;
    }
  }
  return q;
}

/** What a query of one word could be besides a name: a package identifier, a repository URL, a remote URL. */
export interface QueryArtifacts {
  /** Identifiers as typed and lower-cased (npm names are lower-case; the registry keeps others as published). */
  identifiers: string[];
  /** The repositories table's normalised URL, when the query reads as host/owner/name. */
  repositoryUrl: string | null;
  /** Remote endpoint URLs as typed (the registry keeps them as published). */
  remoteUrls: string[];
}

/**
 * The artifact forms of a query, or null for one with white space (identifiers and URLs have none), so that a
 * query of words costs no extra probe. Each form is looked up exactly, through an index.
 */
export function queryArtifacts(q: string): QueryArtifacts | null {
  if (/\s/.test(q)) return null;
  const identifiers = [...new Set([q, q.toLowerCase()])];
  const isUrl = /^https?:\/\//i.test(q);
  // "github.com/acme/x" without its scheme, as people copy it from an address bar
  const withScheme = isUrl ? q : /^[a-z0-9-]+(\.[a-z0-9-]+)+\/[^/]+\/[^/]/i.test(q) ? `https://${q}` : null;
  const repo = withScheme ? normalizeRepositoryUrl(withScheme) : null;
  return { identifiers, repositoryUrl: repo?.owner && repo.name ? repo.url : null, remoteUrls: isUrl ? [q] : [] };
}
