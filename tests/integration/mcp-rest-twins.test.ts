import { beforeEach, describe, expect, it, vi } from "vitest";
import { GET as searchGet } from "@/app/v1/search/route";
import { GET as serverGet } from "@/app/v1/server/route";
import { GET as lookalikesGet } from "@/app/v1/lookalikes/route";
import { GET as statsGet } from "@/app/v1/stats/route";
import { GET as recentGet } from "@/app/v1/recent/route";
import { GET as coverageGet } from "@/app/v1/coverage/route";
import { GET as changesGet } from "@/app/v1/changes/route";
import { POST as watchPost, GET as watchGet, DELETE as watchDelete } from "@/app/v1/watch/route";
import { POST as preflightPost } from "@/app/v1/preflight/route";
import { GET as stampGet } from "@/app/v1/stamp/route";
import { POST as auditPost } from "@/app/v1/audit/route";
import { GET as creditsGet } from "@/app/v1/credits/route";
import { GET as policiesGet } from "@/app/v1/policies/route";
import type { Db } from "@/lib/db/client";
import { resetDb } from "../helpers/db";
import { keyedAccount, listing, loadFixtureCatalog, request, walletRemaining } from "../helpers/catalog-fixture";
import { mcpClients } from "../helpers/mcp-client";

// the stats service fails on demand, for a failure that is no ApiError (a database error, a bug)
const fault = vi.hoisted(() => ({ on: false }));
vi.mock("@/lib/services/get-stats", async (original) => {
  const real = await original<typeof import("@/lib/services/get-stats")>();
  return { ...real, getStats: (...args: Parameters<typeof real.getStats>) => (fault.on ? Promise.reject(new Error("boom: secret internals")) : real.getStats(...args)) };
});

let db: Db;
const mcp = mcpClients();
beforeEach(async () => {
  db = await resetDb();
  await loadFixtureCatalog(db, [listing({ name: "io.github.other/weather", title: "Weather too" })]);
});

type Route = (req: Request) => Promise<Response>;
const VOLATILE = new Set(["audit_id", "evaluated_at", "valid_until", "decision_input_digest", "secret", "created_at", "updated_at", "unsubscribed_at"]);

/** The data of two answers to the same question, minus what must differ between two calls (ids, times). */
function comparable(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(comparable);
  if (v && typeof v === "object") {
    return Object.fromEntries(
      Object.entries(v)
        .filter(([k]) => !VOLATILE.has(k))
        .map(([k, x]) => [k, typeof x === "string" && /^wat_/.test(x) ? "wat_*" : comparable(x)]),
    );
  }
  if (typeof v === "string") return v.replace(/ input=\S+ at=\S+ until=\S+ audit=\S+$/, "");
  return v;
}

interface Twin {
  tool: string;
  args: Record<string, unknown>;
  rest: (key: string, setup: Record<string, string>) => Promise<Response>;
  cost: number;
  /** Prepares state per account (e.g. a watch to list or delete); returns values the calls may use. */
  setup?: (key: string) => Promise<Record<string, string>>;
  restBody?: (res: Response) => Promise<unknown>;
  mcpData?: (data: any) => unknown;
}

const CONFIG = JSON.stringify({ mcpServers: { weather: { command: "npx", args: ["-y", "@acme/mcp-weather"] } } });
const makeWatch = async (key: string) => {
  const res = await watchPost(request("/v1/watch", { key, body: { server_name: "io.github.acme/weather", email: "ops@example.com" } }));
  return { id: (await res.json()).watch.id as string };
};

const TWINS: Twin[] = [
  // numbers and booleans as JSON values (the contract's types), their text forms on the REST query string
  { tool: "catalog_search", args: { q: "weather", limit: 5 }, rest: (key) => searchGet(request("/v1/search?q=weather&limit=5", { key })), cost: 1 },
  { tool: "catalog_lookup", args: { name: "io.github.acme/weather" }, rest: (key) => serverGet(request("/v1/server?name=io.github.acme/weather", { key })), cost: 1 },
  { tool: "catalog_lookalikes", args: { name: "io.github.acme/weather" }, rest: (key) => lookalikesGet(request("/v1/lookalikes?name=io.github.acme/weather", { key })), cost: 1 },
  { tool: "catalog_stats", args: {}, rest: (key) => statsGet(request("/v1/stats", { key })), cost: 0 },
  { tool: "catalog_recent", args: { limit: 3 }, rest: (key) => recentGet(request("/v1/recent?limit=3", { key })), cost: 0 },
  { tool: "catalog_coverage", args: {}, rest: (key) => coverageGet(request("/v1/coverage", { key })), cost: 0 },
  { tool: "catalog_changes", args: {}, rest: (key) => changesGet(request("/v1/changes", { key })), cost: 0 },
  {
    tool: "catalog_watch_subscribe",
    args: { server_name: "io.github.acme/weather", email: "ops@example.com" },
    rest: (key) => watchPost(request("/v1/watch", { key, body: { server_name: "io.github.acme/weather", email: "ops@example.com" } })),
    cost: 10,
  },
  { tool: "catalog_watch_list", args: {}, rest: (key) => watchGet(request("/v1/watch", { key })), cost: 10, setup: makeWatch },
  {
    tool: "catalog_watch_unsubscribe",
    args: {},
    rest: (key, s) => watchDelete(request(`/v1/watch?id=${s.id}`, { key, method: "DELETE" })),
    cost: 10,
    setup: makeWatch,
  },
  {
    tool: "catalog_preflight",
    args: { server_name: "io.github.acme/weather", policy_id: "builtin:strict" },
    rest: (key) => preflightPost(request("/v1/preflight", { key, body: { server_name: "io.github.acme/weather", policy_id: "builtin:strict" } })),
    cost: 5,
  },
  {
    tool: "catalog_stamp",
    args: { server_name: "io.github.acme/weather" },
    rest: (key) => stampGet(request("/v1/stamp?name=io.github.acme/weather", { key })),
    cost: 5,
    restBody: async (res) => ({ ok: true, stamp: (await res.text()).trimEnd() }),
  },
  {
    tool: "catalog_audit_config",
    args: { config: CONFIG, strict: true },
    rest: (key) => auditPost(request("/v1/audit?strict=1", { key, body: CONFIG })),
    cost: 1,
  },
  { tool: "catalog_credits", args: {}, rest: (key) => creditsGet(request("/v1/credits", { key })), cost: 0 },
  { tool: "catalog_policy_list", args: {}, rest: (key) => policiesGet(request("/v1/policies", { key })), cost: 0 },
];

describe("every MCP tool and its REST twin", () => {
  it("covers all fifteen tools", () => {
    expect(new Set(TWINS.map((t) => t.tool)).size).toBe(15);
  });

  it.each(TWINS)("$tool gives the same data and spends the same credits as REST", async (twin) => {
    const viaRest = await keyedAccount(db, { credits: 100 });
    const viaMcp = await keyedAccount(db, { credits: 100 });
    const restSetup = twin.setup ? await twin.setup(viaRest.key) : {};
    const mcpSetup = twin.setup ? await twin.setup(viaMcp.key) : {};

    const res = await twin.rest(viaRest.key, restSetup);
    expect(res.status).toBe(200);
    const restData = twin.restBody ? await twin.restBody(res) : await res.json();

    const client = await mcp.connect({ key: viaMcp.key });
    const args = twin.tool === "catalog_watch_unsubscribe" ? { id: mcpSetup.id } : twin.args;
    const out = (await client.callTool({ name: twin.tool, arguments: args })) as { isError?: boolean; structuredContent?: unknown };
    expect(out.isError, JSON.stringify(out.structuredContent)).toBeFalsy();

    // credits: both accounts paid the same; the wallet tool reads each account's own (equal) wallet
    expect(await walletRemaining(db, viaMcp.accountId)).toBe(100 - twin.cost);
    expect(await walletRemaining(db, viaRest.accountId)).toBe(100 - twin.cost);
    expect(comparable(out.structuredContent)).toEqual(comparable(restData));
  });

  // REST decodes the body as UTF-8, which drops a leading byte-order mark (a file saved by a Windows editor); the tool
  // hashed its text with the mark, so the same file audited both ways the same day was charged twice.
  it("charges a config with a byte-order mark once a day whether it came by REST or MCP", async () => {
    const a = await keyedAccount(db, { credits: 100 });
    const bom = `\uFEFF${CONFIG}`;
    expect((await auditPost(request("/v1/audit", { key: a.key, body: bom }))).status).toBe(200);
    expect(await walletRemaining(db, a.accountId)).toBe(99);
    const client = await mcp.connect({ key: a.key });
    const out = (await client.callTool({ name: "catalog_audit_config", arguments: { config: bom } })) as { isError?: boolean };
    expect(out.isError).toBeFalsy();
    expect(await walletRemaining(db, a.accountId)).toBe(99);
  });

  // the tool answered its own message ("over the 262144-byte limit"), without REST's hint to send the server map alone
  it("refuses a config over 256 KiB with REST's Error body, spending nothing", async () => {
    const a = await keyedAccount(db, { credits: 100 });
    const big = CONFIG.replace(/}$/, `${" ".repeat(256 * 1024)}}`);
    const res = await auditPost(request("/v1/audit", { key: a.key, body: big }));
    expect(res.status).toBe(413);
    const client = await mcp.connect({ key: a.key });
    const out = (await client.callTool({ name: "catalog_audit_config", arguments: { config: big } })) as { isError?: boolean; structuredContent?: unknown };
    expect(out.isError).toBe(true);
    expect(out.structuredContent).toEqual(await res.json());
    expect(await walletRemaining(db, a.accountId)).toBe(100);
  });

  // the tool's own schema refused "" first, with zod's "Too small: expected string to have >=1 characters"
  it("refuses an empty config with REST's message, as it does a blank one, spending nothing", async () => {
    const a = await keyedAccount(db, { credits: 100 });
    const res = await auditPost(request("/v1/audit", { method: "POST", key: a.key, body: "" }));
    expect(res.status).toBe(400);
    const rest = await res.json();
    expect(rest.message).toMatch(/the config file is empty/);
    const client = await mcp.connect({ key: a.key });
    for (const config of ["", " \n"]) {
      const out = (await client.callTool({ name: "catalog_audit_config", arguments: { config } })) as { isError?: boolean; structuredContent?: unknown };
      expect(out.isError).toBe(true);
      expect(out.structuredContent).toEqual(rest);
    }
    const missing = (await client.callTool({ name: "catalog_audit_config", arguments: {} })) as { structuredContent?: unknown };
    expect(missing.structuredContent).toEqual({ ok: false, error: "invalid_request", message: "config: config is required" });
    expect(await walletRemaining(db, a.accountId)).toBe(100);
  });

  // the tool said only "internal error": nothing to quote, and its log line carried no id to find it by
  it("answers an unexpected failure as REST's 500 does: no internals, a request id to quote that the log carries", async () => {
    const logged: string[] = [];
    const spy = vi.spyOn(console, "error").mockImplementation((line: string) => void logged.push(line));
    fault.on = true;
    try {
      const res = await statsGet(request("/v1/stats"));
      expect(res.status).toBe(500);
      const rest = await res.json();
      const out = (await (await mcp.connect()).callTool({ name: "catalog_stats", arguments: {} })) as { isError?: boolean; structuredContent?: any; content: { text: string }[] };
      expect(out.isError).toBe(true);
      const pattern = /^internal error; quote request id ([0-9a-f-]{36}) when reporting it$/;
      expect(rest).toEqual({ ok: false, error: "internal_error", message: expect.stringMatching(pattern) });
      expect(out.structuredContent).toEqual({ ok: false, error: "internal_error", message: expect.stringMatching(pattern) });
      expect(out.content.map((c) => c.text).join("\n")).not.toMatch(/boom|secret/);
      const id = pattern.exec(out.structuredContent.message)![1];
      expect(id).not.toBe(pattern.exec(rest.message)![1]);
      expect(logged.filter((l) => l.includes(id))).toHaveLength(1);
    } finally {
      fault.on = false;
      spy.mockRestore();
    }
  });
});
