import { getDb } from "@/lib/db/client";
import { cacheControl, etagOf, notModified } from "@/lib/api/cacheable";
import { log } from "@/lib/log";
import { BADGE_STYLES, renderBadge, unavailableBadge, type BadgeStyle } from "@/lib/services/render-badge";
import { nameFromRequestPath } from "@/lib/cards/links";
import { errorMessage } from "@/lib/db/query-error";

export const dynamic = "force-dynamic";

/**
 * GET /badge/<namespace>/<name>.svg: the name is carried as-is, slash included (DESIGN §3). Always an SVG,
 * 404 included, so an embed shows "not in catalog" rather than a broken image.
 */
export async function GET(req: Request, _ctx: { params: Promise<{ name: string[] }> }): Promise<Response> {
  // from the raw path, decoded once: Next.js hands route handlers their params already decoded
  const name = nameFromRequestPath(req.url, "/badge/", ".svg");
  const url = new URL(req.url);
  // Unlike the /v1 API, the badge ignores a parameter it does not know, a bad value of one it knows and a repeat
  // (the first counts): it is an image embedded in READMEs and pages that add their own decorations (`?v=2`
  // or a date to get past a cached copy), and a 400 would be a broken image where the badge promises one that
  // always draws (docs/search-and-cards.md, "The badge").
  const style = (BADGE_STYLES as readonly string[]).includes(url.searchParams.get("style") ?? "") ? (url.searchParams.get("style") as BadgeStyle) : undefined;
  const show = url.searchParams.get("show") === "health" ? "health" : "decision";
  let badge;
  try {
    badge = await renderBadge(await getDb(), name, { style, show });
  } catch (err) {
    log.error("badge failed", { name, error: errorMessage(err) });
    return new Response(unavailableBadge(), { status: 503, headers: { "content-type": "image/svg+xml; charset=utf-8", "cache-control": "no-store" } });
  }
  const etag = etagOf(badge.svg);
  const headers = {
    "content-type": "image/svg+xml; charset=utf-8",
    "cache-control": cacheControl(badge.cache),
    etag,
    "x-content-type-options": "nosniff",
    // the SVG is an image, never a document that runs script
    "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  };
  if (badge.status === 200 && notModified(req, etag)) return new Response(null, { status: 304, headers });
  return new Response(badge.svg, { status: badge.status, headers });
}
