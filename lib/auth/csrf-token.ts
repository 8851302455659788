import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { authOptions } from "./auth-options";

// next-auth v4's double-submit CSRF token, as its core writes and checks it (core/lib/csrf-token.js, the cookie
// in core/lib/cookie.js): the cookie holds `<token>|sha256(<token><secret>)`, and a POST to /api/auth/* must
// carry <token> as its `csrfToken` field. next-auth exports neither, and its own client only gets the cookie by
// fetching /api/auth/csrf from a script; the sign-in page's plain HTML form needs it set before it is sent.

type HeaderReader = { get(name: string): string | null };

export interface CsrfCookie {
  name: string;
  value: string;
  options: { httpOnly: true; sameSite: "lax"; path: "/"; secure: boolean };
}

/**
 * next-auth's cookies are `__Host-` and Secure when the origin it detects is https (utils/detect-origin.js:
 * NEXTAUTH_URL, else on Vercel or with AUTH_TRUST_HOST the forwarded protocol).
 */
function secureCookies(h: HeaderReader): boolean {
  authOptions(); // sets NEXTAUTH_URL as the auth route sees it, when this process has not yet built its options
  if (process.env.NEXTAUTH_URL) return process.env.NEXTAUTH_URL.startsWith("https://");
  if (process.env.VERCEL || process.env.AUTH_TRUST_HOST) return h.get("x-forwarded-proto") !== "http";
  return false;
}

export function csrfCookieName(h: HeaderReader): string {
  return `${secureCookies(h) ? "__Host-" : ""}next-auth.csrf-token`;
}

/**
 * The cookie where next-auth keeps the address a sign-in returns to (core/lib/cookie.js: `__Secure-`, not
 * `__Host-`, on https). Every /api/auth request carrying a callbackUrl sets it, the sign-in link's callback
 * included, and its error redirect keeps it: the sign-in page reads it when an expired or used link lands
 * there without a callbackUrl in the address.
 */
export function callbackUrlCookieName(h: HeaderReader): string {
  return `${secureCookies(h) ? "__Secure-" : ""}next-auth.callback-url`;
}

const tokenHash = (token: string) =>
  createHash("sha256")
    .update(`${token}${authOptions().secret}`)
    .digest("hex");

/** The token of a csrf cookie value next-auth will accept (signed with this server's secret), or null. */
export function csrfTokenOf(cookieValue: string | undefined): string | null {
  const [token, hash] = (cookieValue ?? "").split("|");
  if (!token || !hash) return null;
  const expected = Buffer.from(tokenHash(token));
  const given = Buffer.from(hash);
  return given.length === expected.length && timingSafeEqual(given, expected) ? token : null;
}

/** A fresh csrf cookie, as next-auth would set it on its first answer to this client. */
export function newCsrfCookie(h: HeaderReader): CsrfCookie {
  const secure = secureCookies(h);
  const token = randomBytes(32).toString("hex");
  return { name: csrfCookieName(h), value: `${token}|${tokenHash(token)}`, options: { httpOnly: true, sameSite: "lax", path: "/", secure } };
}
