import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as React from "react";
import { renderToStaticMarkup } from "react-dom/server";

// vitest compiles the page's JSX to React.createElement (Next's build uses the automatic runtime)
(globalThis as { React?: typeof React }).React = React;

// The page reads its cookies through next/headers; none is the first visit's state.
const jar = vi.hoisted(() => new Map<string, string>());
vi.mock("next/headers", () => ({
  headers: async () => new Headers(),
  cookies: async () => ({ get: (name: string) => (jar.has(name) ? { name, value: jar.get(name) } : undefined) }),
}));

const saved = { secret: process.env.NEXTAUTH_SECRET, url: process.env.NEXTAUTH_URL };
beforeAll(() => {
  process.env.NEXTAUTH_SECRET = "signin-page-test-secret";
  process.env.NEXTAUTH_URL = "http://localhost:3000";
});
afterAll(() => {
  for (const [name, value] of [["NEXTAUTH_SECRET", saved.secret], ["NEXTAUTH_URL", saved.url]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

async function render(searchParams: Record<string, string | string[] | undefined>): Promise<string> {
  const { default: SignInPage } = await import("@/app/signin/page");
  return renderToStaticMarkup(await SignInPage({ searchParams: Promise.resolve(searchParams) }));
}

// Next.js hands a page a parameter given twice as an array: `/signin?callbackUrl=/a&callbackUrl=/b` was a 500
// (callbackUrl.startsWith is not a function), the sign-in page replaced by the error page.
describe("the sign-in page's query parameters", () => {
  it("takes the first of a callbackUrl given twice, as a single one", async () => {
    expect(await render({ callbackUrl: ["/watches", "/account"] })).toContain('name="callbackUrl" value="/watches"');
    expect(await render({ callbackUrl: "/watches" })).toContain('name="callbackUrl" value="/watches"');
  });

  it("names a known error given twice, and sends anything else to /account", async () => {
    const html = await render({ error: ["Verification", "EmailSignin"], callbackUrl: ["https://evil.example/", "/watches"] });
    expect(html).toContain("That sign-in link has expired or was already used");
    expect(html).toContain('name="callbackUrl" value="/account"');
  });

  // next-auth sends a refused address back with callbackUrl made absolute: /account instead lost the reader's way
  it("takes a callbackUrl of this site's own origin as its path, and any other origin as /account", async () => {
    expect(await render({ callbackUrl: "http://localhost:3000/watches?server=io.github.acme%2Fweather", error: "EmailSignin" })).toContain(
      'name="callbackUrl" value="/watches?server=io.github.acme%2Fweather"',
    );
    for (const other of ["//evil.example/x", "/\\evil.example/x", "http://localhost:3000//evil.example/x", "http://localhost:3001/watches", "https://localhost:3000/watches", "http://evil.example/watches", "javascript:alert(1)", "http://x:99999"]) {
      expect(await render({ callbackUrl: other }), other).toContain('name="callbackUrl" value="/account"');
    }
  });

  // an expired or used link lands on /signin?error=Verification, the page it was for only in next-auth's cookie
  it("takes the page from next-auth's callback-url cookie after an error with no callbackUrl, same-origin only", async () => {
    try {
      jar.set("next-auth.callback-url", "http://localhost:3000/watches?server=a");
      expect(await render({ error: "Verification" })).toContain('name="callbackUrl" value="/watches?server=a"');
      // the address's own callbackUrl comes first; a plain visit is not sent to the page an older sign-in left
      expect(await render({ error: "Verification", callbackUrl: "/changes" })).toContain('name="callbackUrl" value="/changes"');
      expect(await render({})).toContain('name="callbackUrl" value="/account"');
      for (const other of ["//evil.example/x", "https://evil.example", "http://localhost:3000//evil.example/x"]) {
        jar.set("next-auth.callback-url", other);
        expect(await render({ error: "Verification" }), other).toContain('name="callbackUrl" value="/account"');
      }
    } finally {
      jar.clear();
    }
  });
});

// A request the hourly limits refused (lib/auth/sign-in-allowance.ts) comes back as /signin?error=…&retry=<the
// end of the refusing hour>: the page says what happened and when to ask again, in one sentence.
describe("the sign-in page after a refused link request", () => {
  it("says the network's limit was reached and when to try again", async () => {
    const retry = new Date(Math.ceil(Date.now() / 60_000) * 60_000 + 23 * 60_000);
    const html = await render({ error: "TooManySignInRequests", retry: retry.toISOString() });
    expect(html).toContain("No link was sent: your network has asked for 20 sign-in links this hour, the most we send for one network.");
    expect(html).toMatch(new RegExp(`Try again after ${retry.toISOString().slice(11, 16)} UTC \\(in 2[34] minutes\\)\\.`));
  });

  it("says the inbox's limit was reached, in words that tell nothing of an account", async () => {
    const html = await render({ error: "TooManyAccountMails", retry: new Date(Date.now() + 5 * 60_000).toISOString() });
    expect(html).toContain("No link was sent: that address has been sent 5 account e-mails this hour, the most we send to one inbox. Try again after");
    expect(html).not.toMatch(/account (exists|found)|no account/i);
  });
});

describe("retrySentence", () => {
  const now = new Date("2026-05-20T10:37:30Z");
  it("names the time and the minutes left", async () => {
    const { retrySentence } = await import("@/app/signin/sign-in-refusal");
    expect(retrySentence("2026-05-20T11:00:00.000Z", now)).toBe("Try again after 11:00 UTC (in 23 minutes).");
    expect(retrySentence("2026-05-20T10:38:00.000Z", now)).toBe("Try again after 10:38 UTC (in 1 minute).");
  });
  it("says now for a time past, and within the hour for no time or one too far ahead", async () => {
    const { retrySentence } = await import("@/app/signin/sign-in-refusal");
    expect(retrySentence("2026-05-20T10:00:00.000Z", now)).toBe("You can ask for a link again now.");
    for (const odd of [undefined, "", "soon", "2026-05-21T11:00:00.000Z"]) expect(retrySentence(odd, now), String(odd)).toBe("Try again within the hour.");
  });
});
