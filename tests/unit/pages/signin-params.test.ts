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
