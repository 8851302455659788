import { beforeEach, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { POST as auditPost } from "@/app/v1/audit/route";
import { POST as resolvePost } from "@/app/v1/resolve/route";
import type { Db } from "@/lib/db/client";
import { evaluations, packageObservations, repositories, repositoryObservations, serverPackages, vulnObservations } from "@/lib/db/schema";
import { auditResultSchema, resolveResultSchema } from "@/lib/schemas/config-audit";
import { resetDb } from "../helpers/db";
import { keyedAccount, listing, loadFixtureCatalog, request, walletRemaining } from "../helpers/catalog-fixture";

// POST /v1/audit and /v1/resolve end to end through the route handlers, on PGlite and on Postgres.

const HOUR = 3_600_000;
const ago = (hours: number) => new Date(Date.now() - hours * HOUR);

/** Three listings whose evidence makes PASS, BLOCK and (unobserved) REVIEW under builtin:baseline. */
const AUDIT_SERVERS = [
  listing({
    name: "io.github.passco/good",
    repository: { url: "https://github.com/passco/good", source: "github" },
    packages: [{ registryType: "npm", identifier: "good-mcp", version: "1.0.0", transport: { type: "stdio" } }],
    remotes: [{ type: "streamable-http", url: "https://mcp.passco.dev/mcp" }],
  }),
  listing({
    name: "io.github.blockco/gone",
    repository: { url: "https://github.com/blockco/gone", source: "github" },
    packages: [{ registryType: "pypi", identifier: "gone_mcp", version: "2.0.0", transport: { type: "stdio" } }],
  }),
  listing({
    name: "io.github.reviewco/unseen",
    repository: { url: "https://github.com/reviewco/unseen", source: "github" },
    packages: [{ registryType: "npm", identifier: "@reviewco/unseen-mcp", version: "0.3.0", transport: { type: "stdio" } }],
  }),
];

async function observeRepo(db: Db, url: string, exists = true) {
  const [repo] = await db.select().from(repositories).where(eq(repositories.url, url));
  await db.insert(repositoryObservations).values({
    repositoryId: repo.id,
    exists,
    archived: false,
    pushedAt: ago(24 * 10),
    stars: 12,
    observedAt: ago(2),
    attemptedAt: ago(2),
  });
}

async function observePackage(db: Db, ecosystem: string, identifier: string, version: string, exists = true) {
  await db.insert(packageObservations).values({
    ecosystem,
    identifier,
    exists,
    latestVersion: exists ? version : null,
    versions: exists ? { [version]: {} } : null,
    observedAt: ago(2),
    attemptedAt: ago(2),
  });
  // the listing pins `version` or names none (then the latest, `version`, is what was looked up)
  const listed = await db.select({ version: serverPackages.version }).from(serverPackages).where(and(eq(serverPackages.ecosystem, ecosystem), eq(serverPackages.identifier, identifier)));
  for (const listedVersion of new Set(listed.map((l) => l.version ?? ""))) {
    await db.insert(vulnObservations).values({ ecosystem, identifier, listedVersion, queriedVersion: version, advisories: [], observedAt: ago(1), attemptedAt: ago(1) });
  }
}

let db: Db;
beforeEach(async () => {
  db = await resetDb();
  await loadFixtureCatalog(db, AUDIT_SERVERS);
  await observeRepo(db, "https://github.com/passco/good");
  await observePackage(db, "jspkg", "good-mcp", "1.0.0");
  await observeRepo(db, "https://github.com/blockco/gone");
  await observePackage(db, "pypkg", "gone_mcp", "2.0.0", false);
});

const config = (servers: Record<string, unknown>) => JSON.stringify({ mcpServers: servers });
const PASS_ENTRY = { command: "npx", args: ["-y", "good-mcp@1.0.0"] };

/** The audit catalog plus a PyPI server, io.github.pyco/fetch (pyco-fetch 1.0.0), observed well enough to PASS. */
async function catalogWithPyco(): Promise<Db> {
  const fresh = await resetDb();
  const py = listing({
    name: "io.github.pyco/fetch",
    repository: { url: "https://github.com/pyco/fetch", source: "github" },
    packages: [{ registryType: "pypi", identifier: "pyco-fetch", version: "1.0.0", transport: { type: "stdio" } }],
  });
  await loadFixtureCatalog(fresh, [...AUDIT_SERVERS, py]);
  await observeRepo(fresh, "https://github.com/pyco/fetch");
  await observePackage(fresh, "pypkg", "pyco-fetch", "1.0.0");
  return fresh;
}
const PASS_REMOTE = { type: "http", url: "https://mcp.passco.dev/mcp" };
const BLOCK_ENTRY = { command: "uvx", args: ["gone-mcp"] };
const REVIEW_ENTRY = { command: "npx", args: ["-y", "@reviewco/unseen-mcp"] };
const UNKNOWN_ENTRY = { command: "node", args: ["./server.js"] };

// Each keyless call comes from a fresh IP unless a test names one: the one-config-a-day allowance is tested on its own.
let nextIp = 0;
function audit(body: string, opts: { query?: string; key?: string; ip?: string; accept?: string } = {}) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (opts.accept) headers.accept = opts.accept;
  const ip = opts.ip ?? `198.18.${Math.floor(++nextIp / 250)}.${(nextIp % 250) + 1}`;
  return auditPost(request(`/v1/audit${opts.query ? `?${opts.query}` : ""}`, { method: "POST", body, key: opts.key, ip, headers }));
}
const resolve = (body: string, opts: { query?: string; ip?: string } = {}) =>
  resolvePost(request(`/v1/resolve${opts.query ? `?${opts.query}` : ""}`, { method: "POST", body, ip: opts.ip }));

async function auditJson(body: string, opts: Parameters<typeof audit>[1] = {}) {
  const res = await audit(body, opts);
  expect(res.status, await res.clone().text()).toBe(200);
  return { res, body: auditResultSchema.parse(await res.json()) };
}

describe("POST /v1/audit: verdicts and exit codes", () => {
  it("exits 0 when every entry PASSes, with the verdict, server, match and reasons of each entry", async () => {
    const { res, body } = await auditJson(config({ good: PASS_ENTRY, "good-remote": PASS_REMOTE }), { query: "strict=1" });
    expect(res.headers.get("x-catalog-exit-code")).toBe("0");
    expect(res.headers.get("x-tier")).toBe("free");
    expect(body).toMatchObject({
      ok: true,
      exit_code: 0,
      strict: true,
      format: "json",
      layout: "mcp-servers",
      map_keys: ["mcpServers"],
      policy: { id: "builtin:baseline", revision: 1 },
      counts: { PASS: 2, REVIEW: 0, BLOCK: 0, UNKNOWN: 0, total: 2 },
    });
    expect(body.entries[0]).toMatchObject({
      key: "good",
      verdict: "PASS",
      server_name: "io.github.passco/good",
      resolved_by: "jspkg",
      identifier: "good-mcp",
      version: "1.0.0",
      confidence: "high",
      reasons: [{ code: "policy_pass", result: "pass" }],
    });
    expect(body.entries[1]).toMatchObject({ key: "good-remote", verdict: "PASS", resolved_by: "remote_url", identifier: "https://mcp.passco.dev/mcp" });
  });

  it("exits 1 on any BLOCK, strict or not, and names the blocking reason first", async () => {
    const file = config({ good: PASS_ENTRY, bad: BLOCK_ENTRY, unseen: REVIEW_ENTRY, local: UNKNOWN_ENTRY });
    for (const query of ["", "strict=1"]) {
      const { res, body } = await auditJson(file, { query });
      expect(res.headers.get("x-catalog-exit-code")).toBe("1");
      expect(body.exit_code).toBe(1);
      expect(body.counts).toEqual({ PASS: 1, REVIEW: 1, BLOCK: 1, UNKNOWN: 1, total: 4 });
    }
    const { body } = await auditJson(file);
    const bad = body.entries.find((e) => e.key === "bad")!;
    expect(bad).toMatchObject({ verdict: "BLOCK", server_name: "io.github.blockco/gone", resolved_by: "pypkg", identifier: "gone-mcp" });
    expect(bad.reasons[0]).toMatchObject({ code: "pypkg_package_missing", result: "block" });
    expect(body.entries.find((e) => e.key === "local")).toMatchObject({
      verdict: "UNKNOWN",
      server_name: null,
      resolved_by: null,
      kind: "local",
      reasons: [{ code: "local_path", result: "unknown" }],
    });
    expect(body.entries.find((e) => e.key === "unseen")!.reasons.every((r) => r.result === "unknown" || r.result === "review")).toBe(true);
  });

  it("exits 0 on REVIEW or UNKNOWN without strict, and 2 with strict=1 (or strict=true)", async () => {
    for (const [entries, counts] of [
      [{ good: PASS_ENTRY, unseen: REVIEW_ENTRY }, { PASS: 1, REVIEW: 1, UNKNOWN: 0 }],
      [{ good: PASS_ENTRY, local: UNKNOWN_ENTRY }, { PASS: 1, REVIEW: 0, UNKNOWN: 1 }],
    ] as const) {
      const file = config(entries);
      const lax = await auditJson(file);
      expect([lax.body.exit_code, lax.res.headers.get("x-catalog-exit-code")]).toEqual([0, "0"]);
      expect(lax.body.counts).toMatchObject(counts);
      for (const query of ["strict=1", "strict=true"]) {
        const strict = await auditJson(file, { query });
        expect([strict.body.exit_code, strict.res.headers.get("x-catalog-exit-code")]).toEqual([2, "2"]);
      }
      expect((await auditJson(file, { query: "strict=0" })).body.exit_code).toBe(0);
    }
  });

  it("exits 0 for a config with no server map, and reports layout none", async () => {
    const { body } = await auditJson('approval_policy = "on-request"\n', { query: "strict=1&filename=.codex/config.toml" });
    expect(body).toMatchObject({ exit_code: 0, format: "toml", layout: "codex", entries: [], counts: { total: 0 } });
  });

  it("evaluates under policy_id, and refuses an unknown one", async () => {
    const { body } = await auditJson(config({ good: PASS_ENTRY }), { query: "policy_id=builtin:strict" });
    expect(body.policy.id).toBe("builtin:strict");
    const res = await audit(config({ good: PASS_ENTRY }), { query: "policy_id=builtin:lenient" });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ ok: false, error: "invalid_request", message: expect.stringMatching(/policy_id/) });
  });

  it("reads TOML and JSONC, and uses the file name for the client's layout", async () => {
    const toml = '[mcp_servers.good]\ncommand = "npx"\nargs = ["-y", "good-mcp"]\n\n[mcp_servers.remote]\nurl = "https://mcp.passco.dev/mcp"\n';
    const { body } = await auditJson(toml, { query: "filename=config.toml" });
    expect(body).toMatchObject({ format: "toml", layout: "codex", counts: { PASS: 2, total: 2 } });
    const jsonc = '{\n  // project servers\n  "servers": { "good": { "type": "stdio", "command": "npx", "args": ["good-mcp"], }, },\n}';
    const vs = await auditJson(jsonc, { query: `filename=${encodeURIComponent(".vscode/mcp.json")}` });
    expect(vs.body).toMatchObject({ format: "jsonc", layout: "vscode", entries: [{ key: "good", verdict: "PASS", honoured: true }] });
  });

  it("does not record evaluations: an audit is one metered call, not N preflights", async () => {
    const a = await keyedAccount(db, { credits: 10 });
    await auditJson(config({ good: PASS_ENTRY, bad: BLOCK_ENTRY }), { key: a.key });
    expect(await db.select().from(evaluations)).toEqual([]);
  });
});

describe("POST /v1/audit: text/plain", () => {
  it("answers one VERDICT<TAB>key<TAB>server<TAB>reason line per entry, with the exit code header", async () => {
    const file = config({ good: PASS_ENTRY, bad: BLOCK_ENTRY, "my\tlocal": UNKNOWN_ENTRY });
    const res = await audit(file, { accept: "text/plain", query: "strict=1" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(res.headers.get("x-catalog-exit-code")).toBe("1");
    const lines = (await res.text()).split("\n");
    expect(lines.pop()).toBe("");
    expect(lines.map((l) => l.split("\t").slice(0, 3))).toEqual([
      ["PASS", "good", "io.github.passco/good"],
      ["BLOCK", "bad", "io.github.blockco/gone"],
      ["UNKNOWN", "my local", "-"],
    ]);
    expect(lines.every((l) => l.split("\t").length === 4)).toBe(true);
    expect(lines[0].split("\t")[3]).toBe("every rule of baseline@1 passes on the catalog's evidence");
    expect(lines[2].split("\t")[3]).toMatch(/^node runs the local file \.\/server\.js/);
  });

  it("prefers JSON when JSON is asked for first or with a higher q", async () => {
    const file = config({ good: PASS_ENTRY });
    expect((await audit(file, { accept: "application/json, text/plain" })).headers.get("content-type")).toMatch(/json/);
    expect((await audit(file, { accept: "text/plain;q=0.5, application/json" })).headers.get("content-type")).toMatch(/json/);
    expect((await audit(file, { accept: "application/json;q=0.2, text/plain" })).headers.get("content-type")).toMatch(/text\/plain/);
  });

  it("keeps the Error body as JSON on errors", async () => {
    const res = await audit("{ nope", { accept: "text/plain" });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ ok: false, error: "invalid_request" });
  });
});

describe("POST /v1/audit: errors", () => {
  it("answers a file it cannot read with 400 naming the line and column", async () => {
    const res = await audit('{\n  "mcpServers": {\n    "a": { "command": "npx" \n    "b": {}\n  }\n}');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      ok: false,
      error: "invalid_request",
      message: "the config file cannot be read: not valid JSON, nor JSON with comments and trailing commas: comma expected (line 4, column 5)",
    });
    const toml = await audit('[mcp_servers.a]\ncommand = "npx\n', { query: "filename=config.toml" });
    expect(toml.status).toBe(400);
    expect((await toml.json()).message).toMatch(/^the config file cannot be read: not valid TOML: .*\(line 2, column \d+\)$/);
  });

  it.each([
    ["an empty body", "", /empty/],
    ["a bare string", "../../Code - Insiders/User/mcp.json", /not an MCP config/],
    ["a JSON array", "[]", /not an array/],
    ["a wrongly typed server map", '{"mcpServers": "npx"}', /mcpServers must be an object or a list/],
    ["nesting 10,000 levels deep", "[".repeat(10_000), /nested more than 64/],
  ])("answers %s with 400", async (_what, body, message) => {
    const res = await audit(body);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ ok: false, error: "invalid_request", message: expect.stringMatching(message) });
  });

  it("answers a file of comments alone with the same 400 whatever its syntax (a TOML one passed as a green empty config)", async () => {
    for (const [body, filename] of [
      ["# servers go here\n# [mcp_servers.git]\n", ".codex/config.toml"],
      ["# servers go here\n# [mcp_servers.git]\n", ""],
      ["# servers go here\n# - name: git\n", ".continue/config.yaml"],
      ["// servers go here\n// {}\n", ".cursor/mcp.json"],
    ]) {
      const res = await audit(body, { query: filename ? `filename=${encodeURIComponent(filename)}` : undefined });
      expect(res.status, filename).toBe(400);
      expect(res.headers.get("x-catalog-exit-code")).toBeNull();
      expect(await res.json()).toEqual({
        ok: false,
        error: "invalid_request",
        message: "the config file cannot be read: the config file holds only comments: no settings and no servers to audit (line 1, column 1)",
      });
    }
  });

  it("answers bytes that are not UTF-8 with 400", async () => {
    const req = new Request("http://localhost/v1/audit", {
      method: "POST",
      headers: { "x-mcp-preflight-socket-ip": "198.51.100.10" },
      body: Uint8Array.from([0x7b, 0xff, 0xfe, 0x7d]),
    });
    const res = await auditPost(req);
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe("the config file cannot be read: the body is not UTF-8 text (a binary file or another encoding) (line 1, column 2)");
  });

  it("answers a UTF-16 file (as Windows PowerShell writes one) with 400 naming the encoding, not calling it binary", async () => {
    const utf16 = Buffer.from(config({ a: PASS_ENTRY }), "utf16le");
    for (const body of [Buffer.concat([Buffer.from([0xff, 0xfe]), utf16]), utf16]) {
      const req = new Request("http://localhost/v1/audit", { method: "POST", headers: { "x-mcp-preflight-socket-ip": "198.51.100.10" }, body });
      const res = await auditPost(req);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        ok: false,
        error: "invalid_request",
        message: "the config file cannot be read: the file is UTF-16 text, not UTF-8: save it as UTF-8 and send it again (line 1, column 1)",
      });
    }
  });

  it("answers unknown or malformed query parameters with 400", async () => {
    for (const query of ["stict=1", "strict=yes", "filename="]) {
      const res = await audit(config({ good: PASS_ENTRY }), { query });
      expect(res.status, query).toBe(400);
      expect((await res.json()).error).toBe("invalid_request");
    }
  });

  it("answers a form upload (curl -F) with a 400 that says to send the file as the body", async () => {
    const form = new FormData();
    form.set("file", new Blob([config({ good: PASS_ENTRY })]), "mcp.json");
    const res = await auditPost(new Request("http://localhost/v1/audit", { method: "POST", body: form, headers: { "x-mcp-preflight-socket-ip": "198.18.200.1" } }));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid_request", message: expect.stringMatching(/--data-binary @file\), not as a form upload/) });
  });

  it("answers a body over 256 KiB with 413 and the Error body, declared or streamed", async () => {
    const big = config({ good: { ...PASS_ENTRY, env: { PAD: "x".repeat(256 * 1024) } } });
    const res = await audit(big);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      ok: false,
      error: "payload_too_large",
      message: 'the config file is over 256 KiB; a client\'s whole settings file (~/.claude.json also keeps project history) can be cut to its server map: send {"mcpServers": {…}} alone',
    });
    const stream = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(big));
        c.close();
      },
    });
    const streamed = await auditPost(
      new Request("http://localhost/v1/audit", { method: "POST", body: stream, duplex: "half", headers: { "x-mcp-preflight-socket-ip": "198.51.100.11" } } as RequestInit),
    );
    expect(streamed.status).toBe(413);
  });
});

describe("POST /v1/audit: limits", () => {
  const many = (n: number) => config(Object.fromEntries(Array.from({ length: n }, (_, i) => [`s${i}`, { command: "npx", args: [`pkg-${i}`] }])));

  it("takes 25 entries without a key and answers 26 with 413", async () => {
    expect((await audit(many(25), { ip: "203.0.113.1" })).status).toBe(200);
    const res = await audit(many(26), { ip: "203.0.113.2" });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({
      ok: false,
      error: "payload_too_large",
      message: "the config has 26 server entries; without an API key one audit takes at most 25 (with a key, 100)",
    });
  });

  it("takes 100 entries with a key and answers 101 with 413, spending nothing", async () => {
    const a = await keyedAccount(db, { credits: 10 });
    expect((await audit(many(100), { key: a.key })).status).toBe(200);
    expect(await walletRemaining(db, a.accountId)).toBe(9);
    const res = await audit(many(101), { key: a.key });
    expect(res.status).toBe(413);
    expect((await res.json()).message).toBe("the config has 101 server entries; one audit takes at most 100; split the file");
    expect(await walletRemaining(db, a.accountId)).toBe(9);
  });

  it("lets a keyless IP audit one config a UTC day: the same config again is free, another is 429", async () => {
    const ip = "203.0.113.50";
    const first = config({ good: PASS_ENTRY });
    const firstRes = await audit(first, { ip });
    expect(firstRes.status).toBe(200);
    // the headers describe the audit allowance it used, the window closest to running out
    expect([firstRes.headers.get("x-ratelimit-resource"), firstRes.headers.get("x-ratelimit-limit"), firstRes.headers.get("x-ratelimit-remaining")]).toEqual(["audits", "1", "0"]);
    // a failed parse spends nothing
    expect((await audit("{ broken", { ip })).status).toBe(400);
    expect((await audit(first, { ip, query: "strict=1" })).status).toBe(200);
    const other = await audit(config({ bad: BLOCK_ENTRY }), { ip });
    expect(other.status).toBe(429);
    const body = await other.json();
    expect(body).toMatchObject({ ok: false, error: "rate_limited", message: expect.stringMatching(/1 distinct audit per UTC day/) });
    expect(body.retry_after).toBeGreaterThan(0);
    expect(Date.parse(body.reset_at)).toBeGreaterThan(Date.now());
    expect(other.headers.get("retry-after")).toBe(String(body.retry_after));
    expect([other.headers.get("x-ratelimit-resource"), other.headers.get("x-ratelimit-limit"), other.headers.get("x-ratelimit-remaining")]).toEqual(["audits", "1", "0"]);
    expect(other.headers.get("ratelimit-policy")).toContain('"audits";q=1;w=86400');
    // another IP has its own allowance, and the audit allowance is not the lookups allowance
    expect((await audit(config({ bad: BLOCK_ENTRY }), { ip: "203.0.113.51" })).status).toBe(200);
  });

  it("says where a keyless IP stands in its audit allowance on refusals before the charge too (400, 413)", async () => {
    const ip = "203.0.113.60";
    const window = (res: Response) => [res.headers.get("x-ratelimit-resource"), res.headers.get("x-ratelimit-limit"), res.headers.get("x-ratelimit-remaining")];
    // before its first audit: the one config of the day is still there
    const broken = await audit("{ broken", { ip });
    expect(broken.status).toBe(400);
    expect(window(broken)).toEqual(["audits", "1", "1"]);
    expect((await audit(config({ good: PASS_ENTRY }), { ip })).status).toBe(200);
    // used: a 26-entry config (413) must not read "10 remaining" from the lookups, which the audit never spends
    const tooMany = await audit(many(26), { ip });
    expect(tooMany.status).toBe(413);
    expect(window(tooMany)).toEqual(["audits", "1", "0"]);
    expect(tooMany.headers.get("ratelimit-policy")).toContain('"audits";q=1;w=86400');
    const badQuery = await audit(config({ good: PASS_ENTRY }), { ip, query: "strict=yes" });
    expect(badQuery.status).toBe(400);
    expect(window(badQuery)).toEqual(["audits", "1", "0"]);
  });

  it("charges a keyed caller 1 credit per distinct config per UTC day, and 402 on an empty wallet", async () => {
    const a = await keyedAccount(db, { credits: 2 });
    const first = config({ good: PASS_ENTRY });
    const r1 = await audit(first, { key: a.key });
    expect(r1.status).toBe(200);
    expect(r1.headers.get("x-tier")).toBe("registered");
    expect(r1.headers.get("x-credits-remaining")).toBe("1");
    expect((await audit(first, { key: a.key, accept: "text/plain" })).status).toBe(200);
    expect(await walletRemaining(db, a.accountId)).toBe(1);
    expect((await audit(config({ bad: BLOCK_ENTRY }), { key: a.key })).status).toBe(200);
    expect(await walletRemaining(db, a.accountId)).toBe(0);
    const broke = await audit(config({ unseen: REVIEW_ENTRY }), { key: a.key });
    expect(broke.status).toBe(402);
    expect(await broke.json()).toMatchObject({ ok: false, error: "payment_required" });
  });

  it("answers an invalid key with 401 even though a key is optional", async () => {
    const res = await audit(config({ good: PASS_ENTRY }), { key: "catk_not-a-real-key" });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ ok: false, error: "unauthorized" });
  });
});

describe("POST /v1/resolve", () => {
  it("resolves without verdicts, spends nothing and has no daily limit", async () => {
    const ip = "203.0.113.80";
    for (let i = 0; i < 3; i++) {
      const res = await resolve(config({ good: PASS_ENTRY, bad: BLOCK_ENTRY, [`local${i}`]: UNKNOWN_ENTRY, remote: { url: "https://mcp.passco.dev/mcp/tenant" } }), { ip });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-catalog-exit-code")).toBeNull();
      const body = resolveResultSchema.parse(await res.json());
      expect(body.counts).toEqual({ resolved: 3, unresolved: 1, total: 4 });
      expect(body.entries.map((e) => [e.key, e.server_name, e.resolved_by, e.confidence])).toEqual([
        ["good", "io.github.passco/good", "jspkg", "high"],
        ["bad", "io.github.blockco/gone", "pypkg", "high"],
        [`local${i}`, null, null, null],
        ["remote", "io.github.passco/good", "remote_url", "medium"],
      ]);
      expect(body.entries[2].unresolved).toMatchObject({ code: "local_path" });
    }
  });

  it("says a package, image or command given by a variable is a placeholder, not a local path; a path under one stays local", async () => {
    const res = await resolve(
      config({
        pkg: { command: "npx", args: ["-y", "${input:pkg}"] },
        py: { command: "uvx", args: ["{{pkg}}"] },
        image: { command: "docker", args: ["run", "-i", "--rm", "${IMAGE}"] },
        program: { command: "$MCP_CMD", args: [] },
        file: { command: "npx", args: ["-y", "${workspaceFolder}/server.js"] },
      }),
    );
    expect(res.status).toBe(200);
    const body = resolveResultSchema.parse(await res.json());
    expect(body.entries.map((e) => [e.key, e.kind, e.identifier, e.unresolved?.code])).toEqual([
      ["pkg", "other", "${input:pkg}", "placeholder"],
      ["py", "other", "{{pkg}}", "placeholder"],
      ["image", "other", "${IMAGE}", "placeholder"],
      ["program", "other", "$MCP_CMD", "placeholder"],
      ["file", "local", "${workspaceFolder}/server.js", "local_path"],
    ]);
    expect(body.entries[0].unresolved!.summary).toBe(
      "the package npx runs, ${input:pkg}, is a placeholder (a variable or template): it cannot be resolved until the client substitutes it at launch",
    );
  });

  it("matches a listed remote whose host the registry keeps in upper case; the path stays case-sensitive", async () => {
    db = await resetDb();
    await loadFixtureCatalog(db, [listing({ name: "io.github.upperco/remote", remotes: [{ type: "streamable-http", url: "HTTPS://MCP.UpperCo.dev/Mcp" }] })]);
    const res = await resolve(config({ lower: { url: "https://mcp.upperco.dev/Mcp" }, mixed: { url: "https://Mcp.UPPERCO.dev/Mcp/" }, path: { url: "https://mcp.upperco.dev/mcp" } }));
    expect(res.status).toBe(200);
    const body = resolveResultSchema.parse(await res.json());
    expect(body.entries.map((e) => [e.key, e.server_name, e.resolved_by, e.confidence])).toEqual([
      ["lower", "io.github.upperco/remote", "remote_url", "high"],
      ["mixed", "io.github.upperco/remote", "remote_url", "high"],
      ["path", null, null, null],
    ]);
  });

  it("never PASSes on a guess: a package two listings share PASSes only when both would; else REVIEW naming both", async () => {
    db = await resetDb();
    // an older listing of the same npm package, unobserved (REVIEW on its own)
    const twin = listing(
      { name: "io.github.twinco/good", packages: [{ registryType: "npm", identifier: "good-mcp", version: "1.0.0", transport: { type: "stdio" } }] },
      { publishedAt: "2025-01-01T00:00:00Z" },
    );
    await loadFixtureCatalog(db, [...AUDIT_SERVERS, twin]);
    await observeRepo(db, "https://github.com/passco/good");
    await observePackage(db, "jspkg", "good-mcp", "1.0.0");
    const { res, body } = await auditJson(config({ guess: PASS_ENTRY, "io.github.passco/good": PASS_ENTRY }), { query: "strict=1" });
    const [guess, named] = body.entries;
    expect(guess).toMatchObject({ server_name: "io.github.passco/good", confidence: "low", alternatives: ["io.github.twinco/good"], verdict: "REVIEW" });
    expect(guess.reasons).toEqual([
      {
        code: "ambiguous_match",
        result: "review",
        summary: "good-mcp is listed by 2 servers (io.github.passco/good PASS, io.github.twinco/good REVIEW) and the entry's key names none of them; which one it runs decides, so a person must check",
      },
    ]);
    // the key that names one of them is no guess
    expect(named).toMatchObject({ server_name: "io.github.passco/good", verdict: "PASS" });
    expect([body.exit_code, res.headers.get("x-catalog-exit-code")]).toEqual([2, "2"]);
  });

  it("never PASSes on a guess: python -m names a module, and the PyPI distribution read from it is a guess (REVIEW)", async () => {
    db = await catalogWithPyco();
    await observeRepo(db, "https://github.com/blockco/gone");
    await observePackage(db, "pypkg", "gone_mcp", "2.0.0", false);
    const { res, body } = await auditJson(
      config({ sure: { command: "uvx", args: ["pyco-fetch"] }, module: { command: "python3", args: ["-m", "pyco_fetch"] } }),
      { query: "strict=1" },
    );
    const [sure, module] = body.entries;
    expect(sure).toMatchObject({ server_name: "io.github.pyco/fetch", confidence: "high", verdict: "PASS" });
    expect(module).toMatchObject({ server_name: "io.github.pyco/fetch", resolved_by: "pypkg", confidence: "low", verdict: "REVIEW" });
    expect(module.reasons).toEqual([{ code: "guessed_match", result: "review", summary: expect.stringMatching(/would PASS.*guess/) }]);
    expect([body.exit_code, res.headers.get("x-catalog-exit-code")]).toEqual([2, "2"]);
    // a guess that fails stays failed: only a PASS needs the identity to be sure
    expect((await auditJson(config({ m: { command: "python", args: ["-m", "gone_mcp"] } }))).body.entries[0]).toMatchObject({ confidence: "low", verdict: "BLOCK" });
  });

  it("never PASSes a package the config installs from a fork, a path or another registry under the listed name", async () => {
    const { body } = await auditJson(
      config({
        fork: { command: "npx", args: ["-y", "good-mcp@github:attacker/good-mcp"] },
        path: { command: "npx", args: ["-y", "good-mcp@file:../good-mcp"] },
        registry: { command: "npx", args: ["-y", "--registry", "https://npm.attacker.dev", "good-mcp@1.0.0"] },
        index: { command: "uvx", args: ["--extra-index-url", "https://user:s3cret@pypi.attacker.dev/simple", "gone-mcp"] },
        public: { command: "npx", args: ["-y", "--registry=https://registry.npmjs.org/", "good-mcp@1.0.0"] },
      }),
    );
    expect(body.entries.map((e) => [e.key, e.verdict, e.server_name])).toEqual([
      ["fork", "UNKNOWN", null],
      ["path", "UNKNOWN", null],
      ["registry", "UNKNOWN", null],
      ["index", "UNKNOWN", null],
      ["public", "PASS", "io.github.passco/good"],
    ]);
    expect(JSON.stringify(body)).not.toContain("s3cret");
  });

  it("never PASSes a version it did not evaluate: an exact pin other than the listed version is REVIEW", async () => {
    db = await catalogWithPyco();
    await observeRepo(db, "https://github.com/passco/good");
    await observePackage(db, "jspkg", "good-mcp", "1.0.0");
    const { res, body } = await auditJson(
      config({
        listed: PASS_ENTRY,
        older: { command: "npx", args: ["-y", "good-mcp@0.9.0"] },
        tag: { command: "npx", args: ["-y", "good-mcp@latest"] },
        range: { command: "npx", args: ["-y", "good-mcp@^1"] },
        bare: { command: "npx", args: ["-y", "good-mcp"] },
        pyListed: { command: "uvx", args: ["pyco-fetch==1.0.0"] },
        pyOlder: { command: "uvx", args: ["pyco-fetch==0.5.0"] },
      }),
      { query: "strict=1" },
    );
    expect(body.entries.map((e) => [e.key, e.verdict])).toEqual([
      ["listed", "PASS"],
      ["older", "REVIEW"],
      ["tag", "PASS"],
      ["range", "PASS"],
      ["bare", "PASS"],
      ["pyListed", "PASS"],
      ["pyOlder", "REVIEW"],
    ]);
    expect(body.entries[1].reasons).toEqual([
      {
        code: "version_not_evaluated",
        result: "review",
        summary: "io.github.passco/good would PASS, but the entry pins good-mcp 0.9.0 and the catalog's evidence (deprecation, advisories) is about the listed 1.0.0; a person must check 0.9.0, or pin 1.0.0",
      },
    ]);
    expect(body.entries[6].reasons[0]).toMatchObject({ code: "version_not_evaluated", summary: expect.stringContaining("pins pyco-fetch 0.5.0") });
    expect([body.exit_code, res.headers.get("x-catalog-exit-code")]).toEqual([2, "2"]);
  });

  it("never PASSes an entry that installs packages beside its server (npx -p X -p pkg, uvx --with X): their code runs too", async () => {
    db = await catalogWithPyco();
    await observeRepo(db, "https://github.com/passco/good");
    await observePackage(db, "jspkg", "good-mcp", "1.0.0");
    const { body } = await auditJson(
      config({
        alone: { command: "npx", args: ["-y", "-p", "good-mcp", "good-mcp"] },
        npmExtra: { command: "npx", args: ["-y", "-p", "left-pad", "-p", "good-mcp", "good-mcp"] },
        uvxWith: { command: "uvx", args: ["--with", "requests", "pyco-fetch"] },
        uvxW: { command: "uvx", args: ["-w=evil-pth", "pyco-fetch"] },
        uvxReq: { command: "uvx", args: ["--with-requirements", "reqs.txt", "pyco-fetch"] },
        uvxPlain: { command: "uvx", args: ["--python", "3.12", "pyco-fetch"] },
      }),
    );
    expect(body.entries.map((e) => [e.key, e.verdict])).toEqual([
      ["alone", "PASS"],
      ["npmExtra", "REVIEW"],
      ["uvxWith", "REVIEW"],
      ["uvxW", "REVIEW"],
      ["uvxReq", "REVIEW"],
      ["uvxPlain", "PASS"],
    ]);
    expect(body.entries[1].reasons).toEqual([
      {
        code: "extra_packages",
        result: "review",
        summary: "io.github.passco/good would PASS, but the entry also installs left-pad, which the catalog did not evaluate and whose code runs with the server's (install scripts, import hooks); a person must check it",
      },
    ]);
    expect(body.entries[4].reasons[0].summary).toContain("the requirements in reqs.txt");
  });

  it("resolves a package two listings share to the one published most recently, at low confidence", async () => {
    db = await resetDb();
    const shared = (name: string, publishedAt: string) =>
      listing({ name, packages: [{ registryType: "npm", identifier: "shared-mcp", version: "1.0.0", transport: { type: "stdio" } }] }, { publishedAt });
    // the older listing comes first by name: only the publication date can pick the newer one
    await loadFixtureCatalog(db, [shared("io.github.aaa/shared", "2025-06-01T00:00:00Z"), shared("io.github.zzz/shared", "2026-02-15T00:00:00Z")]);
    const body = resolveResultSchema.parse(await (await resolve(config({ s: { command: "npx", args: ["-y", "shared-mcp"] } }))).json());
    expect(body.entries[0]).toMatchObject({
      server_name: "io.github.zzz/shared",
      confidence: "low",
      alternatives: ["io.github.aaa/shared"],
      notes: [expect.stringMatching(/^ambiguous: 2 listed servers match shared-mcp .*published most recently/)],
    });
  });

  it("shares the audit's parse errors and size limits", async () => {
    const bad = await resolve("{ nope");
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toMatch(/\(line 1, column 3\)$/);
    const huge = await resolve(config(Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`s${i}`, { command: "npx", args: [`p${i}`] }]))));
    expect(huge.status).toBe(413);
    expect((await resolve("x".repeat(256 * 1024 + 1))).status).toBe(413);
  });
});
