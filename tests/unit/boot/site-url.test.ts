import { afterEach, describe, expect, it } from "vitest";
import { siteUrl, siteUrlWarning } from "@/lib/config";
import { authBaseUrl } from "@/lib/auth/auth-options";

// On Vercel without SITE_URL or NEXTAUTH_URL every mailed link (new keys, watch notices, their unsubscribe links)
// pointed to http://localhost:3000: Vercel names the deployment's host itself, without a scheme.
describe("the site's address", () => {
  it("is SITE_URL when set, without a trailing slash, before anything Vercel says", () => {
    expect(siteUrl({ SITE_URL: "https://preflight.example.com/", VERCEL_PROJECT_PRODUCTION_URL: "p.vercel.app", VERCEL_URL: "d.vercel.app" })).toBe(
      "https://preflight.example.com",
    );
  });

  it("is Vercel's production domain, else the deployment's host, as https://, when SITE_URL is unset", () => {
    expect(siteUrl({ VERCEL: "1", VERCEL_PROJECT_PRODUCTION_URL: "preflight.vercel.app", VERCEL_URL: "preflight-abc123.vercel.app" })).toBe("https://preflight.vercel.app");
    expect(siteUrl({ VERCEL: "1", VERCEL_URL: "preflight-abc123.vercel.app" })).toBe("https://preflight-abc123.vercel.app");
    expect(siteUrl({ VERCEL: "1", VERCEL_PROJECT_PRODUCTION_URL: "", VERCEL_URL: "preflight-abc123.vercel.app" })).toBe("https://preflight-abc123.vercel.app");
  });

  it("is this server's own port on localhost with none of them", () => {
    expect(siteUrl({})).toBe("http://localhost:3000");
    expect(siteUrl({ PORT: "8080" })).toBe("http://localhost:8080");
  });

  describe("of sign-in and account links (authBaseUrl)", () => {
    const saved = { ...process.env };
    afterEach(() => {
      for (const k of ["NEXTAUTH_URL", "SITE_URL", "VERCEL_PROJECT_PRODUCTION_URL", "VERCEL_URL"]) {
        if (saved[k] === undefined) delete process.env[k];
        else process.env[k] = saved[k];
      }
    });

    it("is NEXTAUTH_URL, else SITE_URL, else Vercel's host, else localhost", () => {
      for (const k of ["NEXTAUTH_URL", "SITE_URL", "VERCEL_PROJECT_PRODUCTION_URL", "VERCEL_URL"]) delete process.env[k];
      expect(authBaseUrl()).toBe(`http://localhost:${process.env.PORT || 3000}`);
      process.env.VERCEL_URL = "preflight-abc123.vercel.app";
      expect(authBaseUrl()).toBe("https://preflight-abc123.vercel.app");
      process.env.VERCEL_PROJECT_PRODUCTION_URL = "preflight.vercel.app";
      expect(authBaseUrl()).toBe("https://preflight.vercel.app");
      process.env.SITE_URL = "https://preflight.example.com";
      expect(authBaseUrl()).toBe("https://preflight.example.com");
      process.env.NEXTAUTH_URL = "https://auth.example.com/";
      expect(authBaseUrl()).toBe("https://auth.example.com");
    });
  });
});

describe("siteUrlWarning (logged by the boot)", () => {
  it("warns a production start on Vercel that knows no address but localhost", () => {
    expect(siteUrlWarning({ VERCEL: "1", NODE_ENV: "production" })).toBe(
      "links in mails and pages point to http://localhost:3000: set SITE_URL to this deployment's address",
    );
  });

  it("says nothing when any address is known, off Vercel, or in development", () => {
    for (const name of ["NEXTAUTH_URL", "SITE_URL", "VERCEL_PROJECT_PRODUCTION_URL", "VERCEL_URL"]) {
      expect(siteUrlWarning({ VERCEL: "1", NODE_ENV: "production", [name]: name.startsWith("VERCEL") ? "p.vercel.app" : "https://p.example.com" }), name).toBeNull();
    }
    expect(siteUrlWarning({ NODE_ENV: "production" })).toBeNull();
    expect(siteUrlWarning({ VERCEL: "1", NODE_ENV: "development" })).toBeNull();
  });
});
