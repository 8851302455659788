import { describe, expect, it } from "vitest";
import { environmentProblems } from "@/lib/config";
import { listenFailureMessage, serverSettings } from "../../../scripts/server-settings.mjs";

// A setting the service cannot use is refused when a process starts, by name, instead of being read as its default
// (BURST_LIMIT_PER_KEY=100/min was 60) or as NaN (DELIVER_INTERVAL_MS=5s turned every watch notification off,
// UPSTREAM_TIMEOUT_MS=15s failed every upstream call).
describe("environmentProblems", () => {
  it("accepts an empty environment and every documented value", () => {
    expect(environmentProblems({})).toEqual([]);
    expect(
      environmentProblems({
        PORT: "3000",
        DATABASE_POOL_MAX: "10",
        HARVEST_INTERVAL_MS: "0",
        DELIVER_INTERVAL_MS: "5000",
        MAINTENANCE_INTERVAL_MS: "",
        FACTS_CACHE_SECONDS: "0",
        SEARCH_CACHE_SECONDS: "30",
        BURST_LIMIT_PER_KEY: "100000",
        HARVEST_BUDGET_REPO: "0",
        HARVEST_CONCURRENCY_LIVENESS: "16",
        UPSTREAM_TIMEOUT_MS: "15000",
        TRUST_PROXY: "true",
        BOOT_INGEST: "0",
        DEV_MAILBOX: "1",
        DATABASE_PREPARED_STATEMENTS: "0",
        LOG_FORMAT: "text",
        DATABASE_DRIVER: "neon",
      }),
    ).toEqual([]);
  });

  it("names each setting it cannot use, with what it takes and what it got", () => {
    expect(
      environmentProblems({
        PORT: "http",
        DELIVER_INTERVAL_MS: "5s",
        BURST_LIMIT_PER_KEY: "0",
        UPSTREAM_TIMEOUT_MS: "1.5",
        HARVEST_BUDGET_VULN: "-1",
        TRUST_PROXY: "yes",
        BOOT_INGEST: "false",
        DATABASE_DRIVER: "Neon",
      }),
    ).toEqual([
      'PORT must be a whole number from 1 to 65535 (got "http")',
      'DELIVER_INTERVAL_MS must be a whole number from 0 to 2147483647 (got "5s")',
      'BURST_LIMIT_PER_KEY must be a whole number, 1 or more (got "0")',
      'HARVEST_BUDGET_VULN must be a whole number, 0 or more (got "-1")',
      'UPSTREAM_TIMEOUT_MS must be a whole number from 1 to 2147483647 (got "1.5")',
      'TRUST_PROXY must be one of 1, true, 0, false (got "yes")',
      'BOOT_INGEST must be one of 0, 1 (got "false")',
      'DATABASE_DRIVER must be one of neon (got "Neon")',
    ]);
  });
});

// Node keeps a timer of at most 2147483647 ms: past it setTimeout, setInterval and AbortSignal.timeout fire after
// 1 ms, so HARVEST_INTERVAL_MS=3000000000 ran a harvest every millisecond and UPSTREAM_TIMEOUT_MS=3000000000 timed
// every upstream call out at once.
describe("environmentProblems: times in milliseconds", () => {
  const MS_SETTINGS = [
    "REQUEST_TIMEOUT_MS",
    "HARVEST_INTERVAL_MS",
    "DELIVER_INTERVAL_MS",
    "MAINTENANCE_INTERVAL_MS",
    "UPSTREAM_TIMEOUT_MS",
    "LIVENESS_TIMEOUT_MS",
    "WEBHOOK_TIMEOUT_MS",
    "DELIVERY_LEASE_MS",
  ];

  it.each(MS_SETTINGS)("refuses %s above 2147483647, the longest timer Node keeps, and takes 2147483647 itself", (name) => {
    const min = ["REQUEST_TIMEOUT_MS", "HARVEST_INTERVAL_MS", "DELIVER_INTERVAL_MS", "MAINTENANCE_INTERVAL_MS"].includes(name) ? 0 : 1;
    expect(environmentProblems({ [name]: "2147483648" })).toContain(`${name} must be a whole number from ${min} to 2147483647 (got "2147483648")`);
    expect(environmentProblems({ [name]: "2147483647" }).filter((p) => p.startsWith(`${name} `))).toEqual([]);
  });

  it("stops npm start on a REQUEST_TIMEOUT_MS above it", () => {
    expect(() => serverSettings({ REQUEST_TIMEOUT_MS: "3000000000" })).toThrow('REQUEST_TIMEOUT_MS must be a whole number from 0 to 2147483647 (got "3000000000")');
  });
});

describe("environmentProblems: the addresses", () => {
  it("accepts http(s) addresses for the site and the upstreams, and smtp(s) for the mail server", () => {
    expect(
      environmentProblems({
        SITE_URL: "https://preflight.example.com",
        NEXTAUTH_URL: "http://localhost:3000/",
        REGISTRY_URL: "http://127.0.0.1:4010/registry",
        GITHUB_API_URL: "https://api.github.com",
        GITHUB_GRAPHQL_URL: "https://api.github.com/graphql",
        NPM_REGISTRY_URL: "https://registry.npmjs.org",
        PYPI_URL: "https://pypi.org",
        OSV_API_URL: "https://api.osv.dev",
        SMTP_URL: "smtps://user:p%40ss@mail.example.com:465",
      }),
    ).toEqual([]);
    expect(environmentProblems({ SMTP_URL: "smtp://mail.example.com:587?socketTimeout=5000" })).toEqual([]);
  });

  it("refuses an address without its scheme, by name (SITE_URL=preflight.example.com made every server page a 500), never echoing SMTP_URL's password", () => {
    expect(
      environmentProblems({
        SITE_URL: "preflight.example.com",
        NEXTAUTH_URL: "localhost:3000",
        REGISTRY_URL: "registry.modelcontextprotocol.io",
        OSV_API_URL: "ftp://api.osv.dev",
        SMTP_URL: "user:secret@mail.example.com:587",
      }),
    ).toEqual([
      'SITE_URL must be an absolute http:// or https:// URL (got "preflight.example.com")',
      'NEXTAUTH_URL must be an absolute http:// or https:// URL (got "localhost:3000")',
      'REGISTRY_URL must be an absolute http:// or https:// URL (got "registry.modelcontextprotocol.io")',
      'OSV_API_URL must be an absolute http:// or https:// URL (got "ftp://api.osv.dev")',
      "SMTP_URL must be an smtp:// or smtps:// URL, such as smtp://user:pass@host:587 (its value is not shown: it may hold a password)",
    ]);
  });
});

describe("environmentProblems: the webhook timeout and the delivery lease together", () => {
  it("refuses a timeout the lease cannot hold (every delivery run stopped at once, and no notice went out), not each alone", () => {
    expect(environmentProblems({ WEBHOOK_TIMEOUT_MS: "19000" })).toEqual([]);
    expect(environmentProblems({ WEBHOOK_TIMEOUT_MS: "30000", DELIVERY_LEASE_MS: "92000" })).toEqual([]);
    expect(environmentProblems({ WEBHOOK_TIMEOUT_MS: "20000" })).toEqual([
      "DELIVERY_LEASE_MS must be at least 62000 with WEBHOOK_TIMEOUT_MS 20000 (an e-mail send, 3 × the timeout, and 2 s) (got 60000)",
    ]);
    expect(environmentProblems({ DELIVERY_LEASE_MS: "5000" })).toEqual([
      "DELIVERY_LEASE_MS must be at least 32000 with WEBHOOK_TIMEOUT_MS 10000 (an e-mail send, 3 × the timeout, and 2 s) (got 5000)",
    ]);
    // a value refused on its own is named once, for itself
    expect(environmentProblems({ WEBHOOK_TIMEOUT_MS: "10s" })).toEqual(['WEBHOOK_TIMEOUT_MS must be a whole number from 1 to 2147483647 (got "10s")']);
  });
});

describe("serverSettings (scripts/server.mjs)", () => {
  it("reads PORT, HOSTNAME and REQUEST_TIMEOUT_MS with their defaults", () => {
    expect(serverSettings({})).toEqual({ port: 3000, hostname: "0.0.0.0", requestTimeout: 300_000 });
    expect(serverSettings({ PORT: "3160", HOSTNAME: "127.0.0.1", REQUEST_TIMEOUT_MS: "0" })).toEqual({
      port: 3160,
      hostname: "127.0.0.1",
      requestTimeout: 0,
    });
  });

  it("refuses a port or a timeout Node cannot use, naming it, before anything listens", () => {
    expect(() => serverSettings({ PORT: "abc" })).toThrow('PORT must be a whole number from 1 to 65535 (got "abc")');
    expect(() => serverSettings({ PORT: "99999" })).toThrow('PORT must be a whole number from 1 to 65535 (got "99999")');
    expect(() => serverSettings({ REQUEST_TIMEOUT_MS: "5m" })).toThrow('REQUEST_TIMEOUT_MS must be a whole number from 0 to 2147483647 (got "5m")');
  });

  it("says why the server cannot listen in one line", () => {
    const inUse = Object.assign(new Error("listen EADDRINUSE: address already in use 0.0.0.0:3000"), { code: "EADDRINUSE" });
    expect(listenFailureMessage(inUse, "0.0.0.0", 3000)).toBe(
      "cannot listen on 0.0.0.0:3000: the port is in use by another process (stop it, or set PORT to another port)",
    );
    const unknownHost = Object.assign(new Error("getaddrinfo ENOTFOUND no.such.host"), { code: "ENOTFOUND" });
    expect(listenFailureMessage(unknownHost, "no.such.host", 3000)).toBe(
      "cannot listen on no.such.host:3000: getaddrinfo ENOTFOUND no.such.host (HOSTNAME is the address to listen on: 127.0.0.1, 0.0.0.0 or one of this machine's)",
    );
  });
});
