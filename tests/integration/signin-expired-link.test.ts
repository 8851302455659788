import path from "node:path";
import { createRequire } from "node:module";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as React from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { desc, sql } from "drizzle-orm";
import { devMailbox, sessions, verificationTokens } from "@/lib/db/schema";
import type { NextAuthOptions } from "next-auth";
import type { Db } from "@/lib/db/client";
import { resetDb } from "../helpers/db";

// A sign-in link opened after it expired, or a second time, lands on /signin?error=Verification: next-auth's error
// redirect drops the callbackUrl, which it keeps only in its callback-url cookie. The new link asked for there
// must still lead to the page the reader was going to. next-auth's own handler (the one app/api/auth wraps, with
// our options and database) answers each request of a small browser that keeps cookies; the sign-in page is
// rendered with that browser's cookies.

(globalThis as { React?: typeof React }).React = React;

/** One browser's cookies, as the sign-in page reads them through next/headers. */
const browser = vi.hoisted(() => ({ jar: new Map<string, string>() }));
vi.mock("next/headers", () => ({
  headers: async () => new Headers({ host: "localhost:3000" }),
  cookies: async () => ({ get: (name: string) => (browser.jar.has(name) ? { name, value: browser.jar.get(name) } : undefined) }),
}));

const require = createRequire(import.meta.url);
// next-auth's core handler, which NextAuth() runs for every /api/auth request (its package does not export it)
const { AuthHandler } = require(path.join(path.dirname(require.resolve("next-auth")), "core/index.js")) as {
  AuthHandler(params: { req: Record<string, unknown>; options: NextAuthOptions }): Promise<{
    status?: number;
    redirect?: string;
    cookies?: { name: string; value: string; options?: { maxAge?: number; expires?: Date } }[];
  }>;
};

const ORIGIN = "http://localhost:3000";
const WATCH_PAGE = "/watches?server=io.github.acme%2Fweather";
const saved = { secret: process.env.NEXTAUTH_SECRET, url: process.env.NEXTAUTH_URL, smtp: process.env.SMTP_URL, mailbox: process.env.DEV_MAILBOX };
let authOptions: typeof import("@/lib/auth/auth-options").authOptions;
let db: Db;

beforeAll(async () => {
  process.env.NEXTAUTH_SECRET = "signin-expired-link-test-secret";
  process.env.NEXTAUTH_URL = ORIGIN;
  delete process.env.SMTP_URL; // the links go to the dev mailbox
  delete process.env.DEV_MAILBOX;
  ({ authOptions } = await import("@/lib/auth/auth-options"));
});
afterAll(() => {
  for (const [name, value] of [["NEXTAUTH_SECRET", saved.secret], ["NEXTAUTH_URL", saved.url], ["SMTP_URL", saved.smtp], ["DEV_MAILBOX", saved.mailbox]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});
beforeEach(async () => {
  db = await resetDb();
  browser.jar.clear();
  vi.spyOn(console, "log").mockImplementation(() => {}); // the dev mail's log line
});
afterEach(() => {
  vi.restoreAllMocks();
});

/**
 * One request to /api/auth/*, with this browser's cookies; its cookies are kept and its redirects followed while
 * they stay under /api/auth. Returns where the browser ends up (a page of the site).
 */
async function visit(address: string, body?: Record<string, string>): Promise<URL> {
  const url = new URL(address, ORIGIN);
  const [action, providerId] = url.pathname.replace(/^\/api\/auth\//, "").split("/");
  const query = Object.fromEntries(url.searchParams);
  const res = await AuthHandler({
    req: {
      origin: ORIGIN,
      method: body ? "POST" : "GET",
      action,
      providerId,
      query,
      body,
      cookies: Object.fromEntries(browser.jar),
      headers: { host: "localhost:3000" },
      error: query.error ?? providerId,
    },
    options: authOptions(),
  });
  for (const c of res.cookies ?? []) {
    if (c.options?.maxAge === 0 || c.options?.expires) browser.jar.delete(c.name);
    else browser.jar.set(c.name, c.value);
  }
  expect(res.redirect, `${address} answered ${res.status} without a redirect`).toBeTruthy();
  const next = new URL(res.redirect!, ORIGIN);
  return next.pathname.startsWith("/api/auth/") ? visit(next.toString()) : next;
}

/** GET /signin: middleware.ts first gives a browser without a valid csrf cookie one, then the page renders. */
async function signInPage(target: URL): Promise<string> {
  const { csrfCookieName, csrfTokenOf, newCsrfCookie } = await import("@/lib/auth/csrf-token");
  const h = new Headers({ host: "localhost:3000" });
  if (!csrfTokenOf(browser.jar.get(csrfCookieName(h)))) {
    const cookie = newCsrfCookie(h);
    browser.jar.set(cookie.name, cookie.value);
  }
  const { default: SignInPage } = await import("@/app/signin/page");
  return renderToStaticMarkup(await SignInPage({ searchParams: Promise.resolve(Object.fromEntries(target.searchParams)) }));
}

const field = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1]?.replaceAll("&amp;", "&");

/** Sends the sign-in form as the page rendered it (hidden fields and all), and returns the link mailed. */
async function askForLink(html: string, email: string): Promise<URL> {
  const landed = await visit("/api/auth/signin/email", { email, csrfToken: field(html, "csrfToken")!, callbackUrl: field(html, "callbackUrl")! });
  expect(landed.pathname).toBe("/signin/check-email");
  const [mail] = await db.select().from(devMailbox).orderBy(desc(devMailbox.id)).limit(1);
  expect(mail.to).toBe(email);
  return new URL(mail.url!);
}

/** The first sign-in: from the watch page, which sent the reader to /signin?callbackUrl=… */
async function firstLink(email: string): Promise<URL> {
  const html = await signInPage(new URL(`/signin?callbackUrl=${encodeURIComponent(WATCH_PAGE)}`, ORIGIN));
  expect(field(html, "callbackUrl")).toBe(WATCH_PAGE);
  return askForLink(html, email);
}

describe("a sign-in link that expired or was used", () => {
  it("opened after it expired, in a browser that never asked for it, leads to a new link back to the page it was for", async () => {
    const link = await firstLink("ada@example.test");
    await db.update(verificationTokens).set({ expires: sql`now() - interval '1 minute'` });
    browser.jar.clear(); // another browser (the mail read on a phone)

    const landed = await visit(link.toString());
    expect(`${landed.pathname}${landed.search}`).toBe("/signin?error=Verification");
    const html = await signInPage(landed);
    expect(html).toContain("That sign-in link has expired or was already used");
    expect(field(html, "callbackUrl")).toBe(WATCH_PAGE);

    const again = await askForLink(html, "ada@example.test");
    expect(again.searchParams.get("callbackUrl")).toBe(`${ORIGIN}${WATCH_PAGE}`);
    const signedIn = await visit(again.toString());
    expect(`${signedIn.pathname}${signedIn.search}`).toBe(WATCH_PAGE);
    expect(await db.select().from(sessions)).toHaveLength(1);
  });

  it("opened a second time, in the browser that used it, leads back to the page it was for", async () => {
    const link = await firstLink("bea@example.test");
    const signedIn = await visit(link.toString());
    expect(`${signedIn.pathname}${signedIn.search}`).toBe(WATCH_PAGE);

    const landed = await visit(link.toString());
    expect(`${landed.pathname}${landed.search}`).toBe("/signin?error=Verification");
    const html = await signInPage(landed);
    expect(field(html, "callbackUrl")).toBe(WATCH_PAGE);
    const again = await askForLink(html, "bea@example.test");
    expect(again.searchParams.get("callbackUrl")).toBe(`${ORIGIN}${WATCH_PAGE}`);
  });

  // the cookie is the browser's to write, and a crafted link's callbackUrl sets it (next-auth then sends the
  // browser to its own home page): the page sends such a value to /account
  it.each(["//evil.example/x", "https://evil.example/x", `${ORIGIN}//evil.example/x`])("does not return to %s, whoever wrote it in the cookie", async (evil) => {
    const link = await firstLink("cy@example.test");
    await db.update(verificationTokens).set({ expires: sql`now() - interval '1 minute'` });
    link.searchParams.set("callbackUrl", evil);
    const landed = await visit(link.toString());
    expect(landed.searchParams.get("error")).toBe("Verification");
    browser.jar.set("next-auth.callback-url", evil);
    expect(field(await signInPage(landed), "callbackUrl")).toBe("/account");
  });
});
