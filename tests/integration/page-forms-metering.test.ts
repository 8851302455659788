import { beforeEach, describe, expect, it, vi } from "vitest";
import type { Db } from "@/lib/db/client";
import { AUDIT_MAX_BODY_BYTES } from "@/lib/config";
import { searchQuerySchema } from "@/lib/schemas/health-card";
import { GET as searchGet } from "@/app/v1/search/route";
import { POST as auditPost } from "@/app/v1/audit/route";
import { resetDb } from "../helpers/db";
import { keyedAccount, loadFixtureCatalog, request, walletRemaining } from "../helpers/catalog-fixture";

// The home page's search and the audit page's form as they run for a reader without JavaScript (app/home-search.ts,
// app/audit/actions.ts), next to their REST twins called from the same address: the page spends what the API
// would, from the same allowance or wallet, and refuses what it would refuse. Only Next's request headers are
// stood in for (a page reads them through next/headers); the database is the real one.
const page = vi.hoisted(() => ({ headers: new Headers() }));
vi.mock("next/headers", () => ({ headers: async () => page.headers }));
const { homeSearch } = await import("@/app/home-search");
const { queryLength } = await import("@/app/search-answer");
const { auditConfigAction } = await import("@/app/audit/actions");

const IP = "198.51.100.20";
const asReader = (extra: Record<string, string> = {}) => void (page.headers = new Headers({ "x-mcp-preflight-socket-ip": IP, ...extra }));

/** Today's anonymous look-ups left to IP: read from a search the API refuses (400), which spends none. */
async function lookupsLeft(): Promise<number> {
  const res = await searchGet(request("/v1/search?q=x", { ip: IP }));
  expect(res.status).toBe(400);
  return Number(/"daily";r=(\d+)/.exec(res.headers.get("ratelimit") ?? "")![1]);
}

function form(fields: Record<string, string | File>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
}

const CONFIG = JSON.stringify({ mcpServers: { weather: { command: "npx", args: ["-y", "@acme/mcp-weather@1.4.2"] }, local: { command: "node", args: ["server.js"] } } }, null, 2);

let db: Db;
beforeEach(async () => {
  db = await resetDb();
  await loadFixtureCatalog(db);
  asReader();
});

describe("the home page's search", () => {
  it("answers what GET /v1/search answers and spends the address's look-up; a repeat through either is free", async () => {
    expect(await lookupsLeft()).toBe(10);
    const shown = await homeSearch("weather");
    expect(shown && "results" in shown).toBe(true);
    expect(await lookupsLeft()).toBe(9);
    const api = await searchGet(request("/v1/search?q=Weather&limit=10", { ip: IP }));
    expect(api.status).toBe(200);
    const body = await api.json();
    expect(shown).toEqual({
      q: "weather",
      results: body.results.map((r: Record<string, unknown>) => ({
        server_name: r.server_name,
        title: r.title,
        description: r.description,
        health: r.health,
        verified: r.verified,
        verified_status: r.verified_status,
        trust_score: r.trust_score,
        match: r.match,
      })),
    });
    expect(body.results[0].server_name).toBe("io.github.acme/weather");
    await homeSearch(["  weather ", "ignored"]);
    expect(await lookupsLeft()).toBe(9);
  });

  it("asks nothing for a HEAD or a prefetch, and answers a query the API refuses with a message, spending nothing", async () => {
    const hints: [string, string][] = [["x-mcp-preflight-request-method", "HEAD"], ["sec-purpose", "prefetch;prerender"], ["purpose", "prefetch"], ["next-router-prefetch", "1"]];
    for (const [name, value] of hints) {
      asReader({ [name]: value });
      expect(await homeSearch("acme")).toEqual({ q: "acme" });
    }
    asReader({ "x-mcp-preflight-request-method": "GET" });
    expect(await homeSearch("")).toEqual({ q: "", error: "Type at least 2 characters to search." });
    expect(await homeSearch(" w ")).toEqual({ q: " w ", error: "Type at least 2 characters to search." });
    expect(await homeSearch("x".repeat(201))).toEqual({ q: "x".repeat(201), error: "A search is at most 200 characters; this one has 201." });
    expect(await homeSearch(undefined)).toBeUndefined();
    expect(await lookupsLeft()).toBe(10);
  });

  it("past the address's ten look-ups shows the API's refusal with the wait", async () => {
    for (let i = 0; i < 10; i++) expect((await searchGet(request(`/v1/search?q=spent${i}`, { ip: IP }))).status).toBe(200);
    const refused = await searchGet(request("/v1/search?q=weather", { ip: IP }));
    expect(refused.status).toBe(429);
    const { message } = await refused.json();
    const shown = await homeSearch("weather");
    expect(shown).toEqual({ q: "weather", error: expect.stringMatching(/Try again in about \d+ (h|min|s), or sign in and use an API key\.$/) });
    expect((shown as { error: string }).error.startsWith(`${message}.`)).toBe(true);
  });

  it("counts a query's characters as the API does: an emoji is one character, not two UTF-16 units", async () => {
    // 101 emoji are 202 UTF-16 units but 101 characters: the API answers them, so the page must too
    const long = "😀".repeat(101);
    const api = await searchGet(request(`/v1/search?q=${encodeURIComponent(long)}&limit=10`, { ip: IP }));
    expect(api.status).toBe(200);
    expect(await homeSearch(long)).toEqual({ q: long, results: [] });
    // one emoji is one character: the page's own message, before anything is counted, as for "w"
    expect(await homeSearch("😀")).toEqual({ q: "😀", error: "Type at least 2 characters to search." });
    const over = "😀".repeat(201);
    expect(await homeSearch(over)).toEqual({ q: over, error: "A search is at most 200 characters; this one has 201." });
    // the box (app/search-box.tsx) counts the same way, so it does not send the API a query the API refuses as short
    for (const q of ["😀", "😀😀", "w", "wx", "é"]) expect(queryLength(q) >= 2, q).toBe(searchQuerySchema.safeParse({ q }).success);
  });
});

describe("the audit page's form without JavaScript", () => {
  it("is POST /v1/audit from the same address: a textarea's CRLF lines are the script's LF text, a chosen file the same config", async () => {
    const sent = await auditConfigAction({}, form({ config: CONFIG.replace(/\n/g, "\r\n"), policy_id: "builtin:baseline", filename: "" }));
    expect(sent.error).toBeUndefined();
    expect(sent.result!.counts.total).toBe(2);
    expect(sent.values).toEqual({ config: CONFIG, filename: "", policy_id: "builtin:baseline", strict: false });
    const api = await auditPost(request("/v1/audit", { ip: IP, body: CONFIG, headers: { "content-type": "text/plain" } }));
    expect(api.status).toBe(200);
    const { evaluated_at: _a, ...fromApi } = await api.json();
    const { evaluated_at: _b, ...fromPage } = sent.result!;
    expect(fromPage).toEqual(fromApi);

    const file = await auditConfigAction({}, form({ config: "", file: new File([CONFIG], ".mcp.json"), policy_id: "builtin:strict", strict: "1" }));
    expect(file.error).toBeUndefined();
    expect(file.result).toMatchObject({ strict: true, policy: { id: "builtin:strict" } });
    expect(file.values).toMatchObject({ filename: ".mcp.json", strict: true });

    const other = await auditConfigAction({}, form({ config: '{"mcpServers": {}}' }));
    // said as a sentence: the page put "429 rate_limited: " in front of the API's message
    expect(other.error).toMatch(/^Without an API key a client IP gets 1 distinct audit per UTC day.*Try again in about \d+ (h|min|s), or use an API key\.$/);
    expect(other.values!.config).toBe('{"mcpServers": {}}');
  });

  it("with a key typed into the form, pays the key's credit like x-api-key; a bad key, a file too big or nothing sent gets the message", async () => {
    const a = await keyedAccount(db, { credits: 5 });
    const paid = await auditConfigAction({}, form({ config: CONFIG, api_key: ` ${a.key} ` }));
    expect(paid.result!.counts.total).toBe(2);
    expect(await walletRemaining(db, a.accountId)).toBe(4);
    expect((await auditPost(request("/v1/audit", { key: a.key, body: CONFIG, headers: { "content-type": "text/plain" } }))).status).toBe(200);
    expect(await walletRemaining(db, a.accountId)).toBe(4);

    const bad = await auditConfigAction({}, form({ config: CONFIG, api_key: "catk_nonsense" }));
    expect(bad.error).toBe(
      "The API key in the form is not valid (unknown, malformed or revoked): copy it again from the account page, or leave the box empty to audit without a key.",
    );
    const big = await auditConfigAction({}, form({ config: `{"pad": "${"x".repeat(AUDIT_MAX_BODY_BYTES)}"}`, api_key: a.key }));
    expect(big.error).toMatch(/^The config file is over 256 KiB; .*\.$/);
    // a file it cannot read: the parser's line and column, without "400 invalid_request: " in front
    const broken = await auditConfigAction({}, form({ config: '{"mcpServers": {"a": {"command": "npx"}', api_key: a.key }));
    expect(broken.error).toMatch(/^The config file cannot be read: .*\(line \d+, column \d+\)\.$/);
    expect(await auditConfigAction({}, form({ config: "  " }))).toMatchObject({ error: "Paste a config file or choose one." });
    expect(await walletRemaining(db, a.accountId)).toBe(4);

    const empty = await keyedAccount(db, { credits: 0 });
    const unpaid = await auditConfigAction({}, form({ config: CONFIG, api_key: empty.key }));
    expect(unpaid.error).toBe(
      "The API key's account has too few credits left for this audit; its wallet refills on the first day of the next UTC month. Without a key, the audit counts against this address's free daily allowance instead.",
    );
  });
});
