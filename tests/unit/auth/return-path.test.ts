import { describe, expect, it } from "vitest";
import { returnPath } from "@/lib/auth/return-path";

const base = "https://preflight.example";

// The sign-in page's return address comes from the query or from next-auth's callback-url cookie, both of which
// anyone can set in a link: only a page of this site may come out, as a path a browser cannot read as another host.
describe("returnPath (where the sign-in page sends the reader once signed in)", () => {
  it.each([
    ["/watches", "/watches"],
    ["/watches?server=io.github.acme%2Fweather#form", "/watches?server=io.github.acme%2Fweather#form"],
    ["https://preflight.example/watches?server=a", "/watches?server=a"],
    ["https://preflight.example", "/"],
    ["/", "/"],
  ])("keeps %s as %s", (value, expected) => {
    expect(returnPath(value, base)).toBe(expected);
  });

  it.each([
    undefined,
    "",
    "//evil.example/x",
    "/\\evil.example/x",
    "/\t/evil.example/x",
    "\\\\evil.example",
    " //evil.example",
    "https://evil.example",
    "https://evil.example/account",
    "http://preflight.example/watches",
    "https://preflight.example:8443/watches",
    "https://preflight.example.evil.example/",
    "https://preflight.example//evil.example/x",
    "https://preflight.example/\\evil.example",
    "javascript:alert(1)",
    "data:text/html,hi",
    "watches",
    "?q=x",
    "http://x:99999",
  ])("sends %j to /account", (value) => {
    expect(returnPath(value, base)).toBe("/account");
  });
});
