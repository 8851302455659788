import { NextResponse, type NextRequest } from "next/server";
import { getDb } from "@/lib/db/client";
import { nameFromRequestPath } from "@/lib/cards/links";
import { serverExists } from "@/lib/services/get-server-page";
import { REQUEST_METHOD_HEADER } from "@/lib/api/page-request";
import { csrfCookieName, csrfTokenOf, newCsrfCookie } from "@/lib/auth/csrf-token";
import { log } from "@/lib/log";
import { MISSING_SERVER_HEADER, UNCLAIMED_PATH } from "@/app/servers/missing-server";
import { SERVER_ACTION_MAX_BODY_BYTES } from "@/lib/config";

// Node.js runtime: the catalog is read with the same database handle as the pages (one PGlite per process).
export const config = { runtime: "nodejs", matcher: ["/servers/:path+", "/", "/signin", "/audit"] };

export async function middleware(req: NextRequest): Promise<NextResponse> {
  const path = req.nextUrl.pathname;
  if (path === "/") return withRequestMethod(req);
  if (path === "/signin") return withCsrfCookie(req);
  if (path === "/audit") return auditPostTooLarge(req) ?? NextResponse.next();
  return missingServerTo404(req);
}

/**
 * An unknown server name is answered here, before any page renders. A notFound() thrown by the server page
 * (or its layout) gets the 404 status, but Next.js renders its text on the client only: the HTML is an empty
 * `__next_error__` shell (vercel/next.js#62228), so a reader without JavaScript, a crawler or a link preview
 * got a blank page. A path no route claims is fully server-rendered by the root not-found page, so the request
 * is rewritten to one, marked so that page says which server is missing rather than "no page here".
 */
async function missingServerTo404(req: NextRequest): Promise<NextResponse> {
  const name = nameFromRequestPath(req.url, "/servers/", "");
  try {
    if (await serverExists(await getDb(), name)) return NextResponse.next();
  } catch (err) {
    // the page reads the catalog again and shows the error boundary (500) if it is still unreachable
    log.error("server page existence check failed", { name, error: err instanceof Error ? err.message : String(err) });
    return NextResponse.next();
  }
  const headers = new Headers(req.headers);
  headers.set(MISSING_SERVER_HEADER, "1");
  return NextResponse.rewrite(new URL(UNCLAIMED_PATH, req.url), { request: { headers } });
}

/** The home page searches `/?q=` itself, which spends a look-up: it must know a HEAD, whose answer nobody reads. */
function withRequestMethod(req: NextRequest): NextResponse {
  const headers = new Headers(req.headers);
  headers.set(REQUEST_METHOD_HEADER, req.method);
  return NextResponse.next({ request: { headers } });
}

/**
 * The audit form sent without JavaScript is a server action, whose body Next.js refuses over its limit with a
 * bare error page and no word of why. A post that large holds a config over the audit's own 256 KiB anyway:
 * it is answered by app/audit/too-large, which sends the browser back to the page with the API's 413 line.
 * (A browser always sends a form's length.)
 */
function auditPostTooLarge(req: NextRequest): NextResponse | null {
  if (req.method !== "POST" || Number(req.headers.get("content-length") ?? 0) <= SERVER_ACTION_MAX_BODY_BYTES) return null;
  return NextResponse.rewrite(new URL("/audit/too-large", req.url));
}

/**
 * The sign-in form posts straight to next-auth (no script fetching /api/auth/csrf first), so the page must
 * carry the token of a csrf cookie the browser already has: one is set here, on the request too, so the page
 * renders the token of the very cookie this answer sets. A valid cookie is kept (next-auth keeps it too).
 */
function withCsrfCookie(req: NextRequest): NextResponse {
  if (csrfTokenOf(req.cookies.get(csrfCookieName(req.headers))?.value)) return NextResponse.next();
  const cookie = newCsrfCookie(req.headers);
  req.cookies.set(cookie.name, cookie.value);
  const res = NextResponse.next({ request: { headers: req.headers } });
  res.cookies.set(cookie.name, cookie.value, cookie.options);
  return res;
}
