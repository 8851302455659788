/** Where a sign-in returns when the address it was given is missing or not a page of this site. */
export const DEFAULT_RETURN_PATH = "/account";

/**
 * The path on this site a sign-in may return to, from a callbackUrl (the query's, or next-auth's callback-url
 * cookie): a path, or a URL of this site's own origin (next-auth makes callbackUrl absolute when it sends a
 * refused address back, and its cookie always holds one). Anything else is /account: another origin, a scheme
 * such as `javascript:`, and a path a browser reads as another host (`//evil.example/x`, `/\evil.example`,
 * `/<tab>/evil.example`), which the URL parser resolves to that host. The answer is rebuilt from the parsed URL,
 * so it always starts with one slash and never two.
 */
export function returnPath(callbackUrl: string | undefined, baseUrl: string): string {
  if (!callbackUrl) return DEFAULT_RETURN_PATH;
  const base = new URL(baseUrl);
  // a relative reference without a leading slash ("watches", "?q=x") is no address next-auth writes
  if (!callbackUrl.startsWith("/") && !/^[a-z][a-z0-9+.-]*:/i.test(callbackUrl)) return DEFAULT_RETURN_PATH;
  if (!URL.canParse(callbackUrl, base)) return DEFAULT_RETURN_PATH;
  const url = new URL(callbackUrl, base);
  if (url.origin !== base.origin) return DEFAULT_RETURN_PATH;
  // `http://site//evil.example/x` is of this origin, but its path alone would be protocol-relative
  if (url.pathname.startsWith("//")) return DEFAULT_RETURN_PATH;
  return `${url.pathname}${url.search}${url.hash}`;
}
