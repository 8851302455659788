import { describe, expect, it } from "vitest";
import { sameSiteRedirect } from "@/lib/auth/auth-options";

const baseUrl = "https://preflight.example";

describe("sameSiteRedirect (where sign-in and sign-out may send the browser)", () => {
  it.each([
    ["/account", "https://preflight.example/account"],
    ["//evil.example/x", "https://preflight.example//evil.example/x"],
    ["https://preflight.example/watches?server=a", "https://preflight.example/watches?server=a"],
    ["https://evil.example/", baseUrl],
    ["https://preflight.example.evil.example/", baseUrl],
    ["javascript:alert(1)", baseUrl],
  ])("sends %s to %s", (url, expected) => {
    expect(sameSiteRedirect({ url, baseUrl })).toBe(expected);
  });

  // next-auth's own rule threw on these: a 500 for GET /api/auth/session?callbackUrl=http://x:99999
  it.each(["http://x:99999", "https://preflight.example:3000.evil.example/", "not a url", ""])("sends %j, which is no URL, to the home page", (url) => {
    expect(sameSiteRedirect({ url, baseUrl })).toBe(baseUrl);
  });
});
