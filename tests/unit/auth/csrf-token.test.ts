import path from "node:path";
import { createRequire } from "node:module";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

// The sign-in page's csrf cookie is written by us (lib/auth/csrf-token.ts) and checked by next-auth: next-auth's
// own check is the judge here, loaded from its package (it does not export it).
const require = createRequire(import.meta.url);
const { createCSRFToken } = require(path.join(path.dirname(require.resolve("next-auth")), "core/lib/csrf-token.js")) as {
  createCSRFToken(a: { options: { secret: string }; cookieValue?: string; isPost: boolean; bodyValue?: string }): { csrfTokenVerified?: boolean; csrfToken: string };
};

const SECRET = "csrf-test-secret";
let csrf: typeof import("@/lib/auth/csrf-token");
const none = new Headers();
const saved = { secret: process.env.NEXTAUTH_SECRET, url: process.env.NEXTAUTH_URL };

beforeAll(async () => {
  process.env.NEXTAUTH_SECRET = SECRET;
  process.env.NEXTAUTH_URL = "http://localhost:3000";
  csrf = await import("@/lib/auth/csrf-token");
});
afterEach(() => {
  process.env.NEXTAUTH_URL = "http://localhost:3000";
});
afterAll(() => {
  for (const [name, value] of [["NEXTAUTH_SECRET", saved.secret], ["NEXTAUTH_URL", saved.url]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe("the sign-in page's csrf cookie", () => {
  it("is one next-auth accepts: the token the page renders verifies a POST", () => {
    const cookie = csrf.newCsrfCookie(none);
    expect(cookie).toMatchObject({ name: "next-auth.csrf-token", options: { httpOnly: true, sameSite: "lax", path: "/", secure: false } });
    const token = csrf.csrfTokenOf(cookie.value);
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(createCSRFToken({ options: { secret: SECRET }, cookieValue: cookie.value, isPost: true, bodyValue: token! })).toEqual({ csrfTokenVerified: true, csrfToken: token });
  });

  it("reads the token of a cookie next-auth wrote, and refuses one signed with another secret or altered", () => {
    const made = createCSRFToken({ options: { secret: SECRET }, isPost: false }) as { cookie?: string; csrfToken: string };
    expect(csrf.csrfTokenOf(made.cookie)).toBe(made.csrfToken);
    const foreign = createCSRFToken({ options: { secret: "another" }, isPost: false }) as { cookie?: string };
    expect(csrf.csrfTokenOf(foreign.cookie)).toBeNull();
    expect(csrf.csrfTokenOf(`${"0".repeat(64)}|${made.cookie!.split("|")[1]}`)).toBeNull();
    expect(csrf.csrfTokenOf(undefined)).toBeNull();
    expect(csrf.csrfTokenOf("nonsense")).toBeNull();
  });

  it("is named and flagged as next-auth names its cookies on an https origin", () => {
    process.env.NEXTAUTH_URL = "https://preflight.example";
    const cookie = csrf.newCsrfCookie(none);
    expect(cookie.name).toBe("__Host-next-auth.csrf-token");
    expect(cookie.options.secure).toBe(true);
    expect(csrf.csrfCookieName(none)).toBe("__Host-next-auth.csrf-token");
  });

  it("names next-auth's callback-url cookie as next-auth does: __Secure- (not __Host-) on https", () => {
    const { defaultCookies } = require(path.join(path.dirname(require.resolve("next-auth")), "core/lib/cookie.js")) as {
      defaultCookies(secure: boolean): { callbackUrl: { name: string } };
    };
    expect(csrf.callbackUrlCookieName(none)).toBe(defaultCookies(false).callbackUrl.name);
    process.env.NEXTAUTH_URL = "https://preflight.example";
    expect(csrf.callbackUrlCookieName(none)).toBe(defaultCookies(true).callbackUrl.name);
    expect(csrf.callbackUrlCookieName(none)).toBe("__Secure-next-auth.callback-url");
  });
});
