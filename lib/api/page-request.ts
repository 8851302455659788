/**
 * Set by middleware.ts on a request for the home page: the method the client used. A page is not told it, and
 * Next.js renders a page for a HEAD as for a GET (and drops the body). The middleware overwrites whatever a
 * client sent under this name.
 */
export const REQUEST_METHOD_HEADER = "x-mcp-preflight-request-method";

type HeaderReader = { get(name: string): string | null };

/**
 * Whether a person will read this page's answer: not a HEAD, and not a prefetch (Next's router, a browser's
 * `<link rel=prefetch>` or speculation rules) made before anyone asked for the page. A page spends a metered
 * look-up only for a request a person reads.
 */
export function readByAPerson(h: HeaderReader): boolean {
  if (h.get(REQUEST_METHOD_HEADER) === "HEAD") return false;
  if (h.get("next-router-prefetch")) return false;
  return !/\bprefetch\b/i.test(`${h.get("sec-purpose") ?? ""} ${h.get("purpose") ?? ""} ${h.get("x-moz") ?? ""}`);
}
