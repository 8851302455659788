import { createHash } from "node:crypto";

export interface CacheSeconds {
  maxAge: number;
  sMaxAge: number;
  staleWhileRevalidate?: number;
}

export function cacheControl(c: CacheSeconds): string {
  const parts = ["public", `max-age=${c.maxAge}`, `s-maxage=${c.sMaxAge}`];
  if (c.staleWhileRevalidate) parts.push(`stale-while-revalidate=${c.staleWhileRevalidate}`);
  return parts.join(", ");
}

/** A strong validator of the exact bytes sent: the same body always gets the same ETag. */
export function etagOf(bytes: string | Uint8Array): string {
  return `"${createHash("sha256").update(bytes).digest("base64url").slice(0, 27)}"`;
}

/** True when If-None-Match names this ETag (or is `*`), weak comparison as RFC 9110 asks for GET. */
export function notModified(req: Request, etag: string): boolean {
  const header = req.headers.get("if-none-match");
  if (!header) return false;
  if (header.trim() === "*") return true;
  const bare = (t: string) => t.trim().replace(/^W\//, "");
  return header.split(",").some((t) => bare(t) === bare(etag));
}

/**
 * A JSON 200 with Cache-Control and an ETag, or 304 Not Modified (no body, same validators) when the
 * client already holds this exact body.
 */
export function cacheableJson(req: Request, body: unknown, cache: CacheSeconds): Response {
  const text = JSON.stringify(body);
  const etag = etagOf(text);
  const headers = { "cache-control": cacheControl(cache), etag, vary: "accept-encoding" };
  if (notModified(req, etag)) return new Response(null, { status: 304, headers });
  return new Response(text, { status: 200, headers: { ...headers, "content-type": "application/json; charset=utf-8" } });
}
