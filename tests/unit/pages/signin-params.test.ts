import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as React from "react";
import { renderToStaticMarkup } from "react-dom/server";

// vitest compiles the page's JSX to React.createElement (Next's build uses the automatic runtime)
(globalThis as { React?: typeof React }).React = React;

// The page reads its csrf cookie through next/headers; no cookie is the first visit's state.
vi.mock("next/headers", () => ({ headers: async () => new Headers(), cookies: async () => ({ get: () => undefined }) }));

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
    for (const other of ["http://localhost:3001/watches", "https://localhost:3000/watches", "http://evil.example/watches", "javascript:alert(1)", "http://x:99999"]) {
      expect(await render({ callbackUrl: other }), other).toContain('name="callbackUrl" value="/account"');
    }
  });
});
