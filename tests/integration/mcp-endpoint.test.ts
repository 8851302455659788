import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { DELETE as mcpDelete, GET as mcpGet, OPTIONS as mcpOptions, PATCH as mcpPatch, POST as mcpPost, PUT as mcpPut } from "@/app/mcp/route";
import { TOOL_NAMES } from "@/lib/mcp/register-tools";
import { CREDIT_COSTS, MCP_MAX_BATCH_MESSAGES } from "@/lib/config";
import { POST as preflightPost } from "@/app/v1/preflight/route";
import { GET as policiesGet } from "@/app/v1/policies/route";
import { GET as creditsGet } from "@/app/v1/credits/route";
import { GET as searchGet } from "@/app/v1/search/route";
import { API_OPERATIONS } from "@/lib/openapi/operations";
import { buildOpenApiDocument } from "@/lib/openapi/build-openapi-document";
import type { Db } from "@/lib/db/client";
import { preflightResultSchema, policyCatalogSchema } from "@/lib/schemas/preflight";
import { resetDb } from "../helpers/db";
import { keyedAccount, loadFixtureCatalog, request, walletRemaining } from "../helpers/catalog-fixture";
import { mcpClients } from "../helpers/mcp-client";

let db: Db;
beforeEach(async () => {
  db = await resetDb();
  await loadFixtureCatalog(db);
});
const { connect: client, keep } = mcpClients();
const call = (c: Client, name: string, args: Record<string, unknown> = {}) =>
  c.callTool({ name, arguments: args }) as Promise<{ isError?: boolean; structuredContent?: any; content: { type: string; text: string }[] }>;

describe("/mcp", () => {
  it("initializes with instructions that describe the intended flow", async () => {
    const c = await client();
    expect(c.getServerVersion()?.name).toBe("mcp-preflight");
    expect(c.getInstructions()).toMatch(/catalog_search.*catalog_preflight/s);
    expect(c.getInstructions()).toMatch(/not a security finding/);
  });

  it("lists tools with input schemas", async () => {
    const { tools } = await (await client()).listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect([...byName.keys()].sort()).toEqual([...TOOL_NAMES].sort());
    expect(TOOL_NAMES).toHaveLength(15);
    for (const t of tools) {
      expect(t.inputSchema.type).toBe("object");
      expect(t.description!.length).toBeGreaterThan(60);
    }
    const pf = byName.get("catalog_preflight")!;
    expect(pf.inputSchema.properties).toHaveProperty("server_name");
    expect(pf.inputSchema.required).toEqual(["server_name"]);
    expect(pf.description).toMatch(/Stop on BLOCK/);
    // a limit's text form is bounded by its pattern, as its number is by minimum and maximum
    const limit = JSON.stringify(byName.get("catalog_search")!.inputSchema.properties!.limit);
    expect(limit).toContain('"minimum":1,"maximum":50');
    expect(limit).toContain('"pattern":"^0*(?:[1-9]|[1-4][0-9]|50)$"');
  });

  it("closes every tool's arguments and says what each tool may do (annotations)", async () => {
    const c = await client();
    const { tools } = await c.listTools();
    for (const t of tools) expect(t.inputSchema.additionalProperties, t.name).toBe(false);
    const hints = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
    expect(hints.catalog_search).toEqual({ readOnlyHint: true, openWorldHint: false });
    expect(hints.catalog_preflight).toEqual({ readOnlyHint: true, openWorldHint: true });
    // a new watch mails any address it is given and later posts to any https URL: an open world
    expect(hints.catalog_watch_subscribe).toEqual({ readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true });
    expect(hints.catalog_watch_unsubscribe).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false });

    // a misspelt argument is refused, not dropped for its default (REST query strings may carry anything)
    const misspelt = await call(c, "catalog_search", { q: "weather", limt: 5 });
    expect(misspelt.isError).toBe(true);
    expect(misspelt.structuredContent).toMatchObject({ error: "invalid_request", message: expect.stringMatching(/limt/) });
    const noInput = await call(c, "catalog_stats", { verbose: true });
    // named as the tool's arguments: an MCP call has no request body of its own
    expect(noInput.structuredContent).toMatchObject({ error: "invalid_request", message: 'arguments: unknown field(s) "verbose"' });
    expect((await call(c, "catalog_stats")).isError).toBeFalsy();
    expect((await call(c, "catalog_search", { q: "weather", limit: 5 })).isError).toBeFalsy();
  });

  // JSON.parse keeps "__proto__" as an own key, and POST /v1/preflight refuses it as an unknown field; the SDK's zod
  // parse of a tools/call drops it, so the tool ran (and charged) as if it had not been sent
  it("refuses a __proto__ argument as an unknown field, as the REST twin refuses it in a body, spending nothing", async () => {
    const a = await keyedAccount(db, { credits: 100 });
    const raw = `{"server_name":"io.github.acme/weather","__proto__":{"refresh":"if_stale"}}`;
    const rest = await preflightPost(request("/v1/preflight", { key: a.key, body: raw }));
    expect([rest.status, await rest.json()]).toEqual([400, { ok: false, error: "invalid_request", message: 'body: unknown field(s) "__proto__"' }]);
    for (const [name, args] of [
      ["catalog_preflight", raw],
      ["catalog_stats", `{"__proto__":{}}`],
    ]) {
      const res = await mcpPost(
        request("/mcp", {
          method: "POST",
          key: a.key,
          headers: { accept: "application/json, text/event-stream" },
          body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${name}","arguments":${args}}}`,
        }),
      );
      const { result } = await res.json();
      expect(result.isError, name).toBe(true);
      expect(result.structuredContent, name).toEqual({ ok: false, error: "invalid_request", message: 'arguments: unknown field(s) "__proto__"' });
    }
    expect(await walletRemaining(db, a.accountId)).toBe(100);
  });

  // JSON.parse keeps the last copy of a member named twice: REST refuses such a body (lib/api/request.ts), while a
  // tools/call was decided, and charged, under whichever policy_id came last
  it("refuses tool arguments that name a member twice with REST's error, spending nothing, in a batch only that call", async () => {
    const a = await keyedAccount(db, { credits: 100 });
    const raw = `{"server_name":"io.github.acme/weather","policy_id":"builtin:strict","policy_id":"builtin:baseline"}`;
    const rest = await preflightPost(request("/v1/preflight", { key: a.key, body: raw }));
    const refusal = { ok: false, error: "invalid_request", message: "policy_id: given more than once; send it once" };
    expect([rest.status, await rest.json()]).toEqual([400, refusal]);
    const post = async (body: string) =>
      (await mcpPost(request("/mcp", { method: "POST", key: a.key, headers: { accept: "application/json, text/event-stream" }, body }))).json();
    const message = (id: number, name: string, args: string) => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${name}","arguments":${args}}}`;

    const one = await post(message(1, "catalog_preflight", raw));
    expect([one.result.isError, one.result.structuredContent]).toEqual([true, refusal]);
    // as in REST, the schema's refusal comes first; the arguments member itself given twice is refused too
    const unknown = await post(message(2, "catalog_preflight", raw.replace(/}$/, ',"polcy":1}')));
    expect(unknown.result.structuredContent).toEqual({ ...refusal, message: 'arguments: unknown field(s) "polcy"' });
    const twice = await post(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"catalog_stats","arguments":{},"arguments":{}}}`);
    expect(twice.result.structuredContent).toEqual({ ...refusal, message: "arguments: given more than once; send it once" });
    const batch = await post(`[${message(4, "catalog_preflight", raw)},${message(5, "catalog_preflight", '{"server_name":"io.github.acme/weather"}')}]`);
    expect(batch.map((m: { id: number; result: { isError?: boolean } }) => [m.id, m.result.isError ?? false])).toEqual([
      [4, true],
      [5, false],
    ]);
    // a body too deep for the check is not read on its last copies: refused whole, as REST refuses such a body
    const deep = await post(message(6, "catalog_stats", `{}`).replace(`"arguments":{}`, `"arguments":{},"_meta":{"x":${"[".repeat(20_000)}${"]".repeat(20_000)}}`));
    expect(deep).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request: the body nests too deeply to be read" } });
    // the one preflight answered
    expect(await walletRemaining(db, a.accountId)).toBe(100 - CREDIT_COSTS.preflight);
  });

  it("catalog_preflight returns the same data as POST /v1/preflight and spends the same credits", async () => {
    const a = await keyedAccount(db, { credits: 100 });
    const b = await keyedAccount(db, { credits: 100 });
    const viaMcp = await call(await client({ key: a.key }), "catalog_preflight", { server_name: "io.github.acme/weather", policy_id: "builtin:first-party" });
    expect(viaMcp.isError).toBeFalsy();
    const mcpResult = preflightResultSchema.parse(viaMcp.structuredContent);
    expect(viaMcp.content[0].text).toMatch(new RegExp(`^${mcpResult.decision} for io.github.acme/weather`));
    const rest = preflightResultSchema.parse(await (await preflightPost(request("/v1/preflight", { body: { server_name: "io.github.acme/weather", policy_id: "builtin:first-party" }, key: b.key }))).json());
    const strip = (r: typeof rest) => ({ ...r, audit_id: null, evaluated_at: null, valid_until: null, decision_input_digest: null });
    expect(strip(mcpResult)).toEqual(strip(rest));
    expect(mcpResult.facts_digest).toBe(rest.facts_digest);
    expect(await walletRemaining(db, a.accountId)).toBe(95);
    expect(await walletRemaining(db, b.accountId)).toBe(95);
  });

  it("catalog_stamp and catalog_policy_list match their REST twins", async () => {
    const c = await client();
    const stamp = await call(c, "catalog_stamp", { server_name: "io.github.acme/weather" });
    expect(stamp.structuredContent.stamp).toMatch(/^CATALOG-STAMP\/1 \w+ io\.github\.acme\/weather builtin:baseline@1 /);
    const policies = await call(c, "catalog_policy_list");
    expect(policyCatalogSchema.parse(policies.structuredContent)).toEqual(await (await policiesGet(request("/v1/policies"))).json());
  });

  it("answers GET and DELETE with 405 (no server stream, no session), and an SDK client neither polls nor fails", async () => {
    for (const method of ["GET", "DELETE", "PUT", "PATCH"] as const) {
      const handler = { GET: mcpGet, DELETE: mcpDelete, PUT: mcpPut, PATCH: mcpPatch }[method];
      const res = await handler(request("/mcp", { method, headers: { accept: "application/json, text/event-stream" } }));
      expect(res.status, method).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
      expect(await res.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32000, message: expect.stringMatching(/^Method not allowed/) } });
    }
    // OPTIONS says what is answered (Next's own would list the 405 handlers too)
    const options = await mcpOptions();
    expect([options.status, options.headers.get("allow")]).toEqual([204, "POST, OPTIONS"]);
    // the SDK client asks for the stream once after initialize, takes the 405 as "no stream" and goes on. Its
    // reconnection delay is cut to 1 ms (the default is 1 s, growing): a client that took the answer as a stream to
    // reopen would ask again and again within the 50 ms waited after the 405, where the default needed seconds
    let gets = 0;
    let answeredGet!: () => void;
    const got = new Promise<void>((r) => (answeredGet = r));
    const fetchImpl = async (input: string | URL | Request, init?: RequestInit) => {
      const req = new Request(input instanceof Request ? input.url : input, init);
      if (req.method !== "GET") return req.method === "DELETE" ? mcpDelete(req) : mcpPost(req);
      gets++;
      const res = await mcpGet(req);
      answeredGet();
      return res;
    };
    const c = new Client({ name: "polling-check", version: "1" });
    const errors: unknown[] = [];
    const transport = new StreamableHTTPClientTransport(new URL("http://localhost/mcp"), {
      fetch: fetchImpl as typeof fetch,
      reconnectionOptions: { initialReconnectionDelay: 1, maxReconnectionDelay: 1, reconnectionDelayGrowFactor: 1, maxRetries: 1000 },
    });
    await c.connect(transport);
    keep(c);
    c.onerror = (err) => errors.push(err);
    await got;
    await new Promise((r) => setTimeout(r, 50));
    expect((await c.listTools()).tools.length).toBe(TOOL_NAMES.length);
    expect([gets, errors]).toEqual([1, []]);
  });

  it("catalog_credits needs a key and then matches GET /v1/credits", async () => {
    const anon = await call(await client(), "catalog_credits");
    expect(anon.isError).toBe(true);
    expect(anon.structuredContent).toMatchObject({ ok: false, error: "unauthorized" });
    const a = await keyedAccount(db, { credits: 30 });
    const keyed = await call(await client({ key: a.key }), "catalog_credits");
    expect(keyed.structuredContent).toEqual(await (await creditsGet(request("/v1/credits", { key: a.key }))).json());
  });

  it("answers bad input, unknown names, an empty wallet and an invalid key with the REST error identifiers", async () => {
    const anon = await client();
    expect((await call(anon, "catalog_preflight", { server_name: "" })).structuredContent).toMatchObject({ error: "invalid_request" });
    expect((await call(anon, "catalog_preflight", { server_name: "io.github.acme/weather", extra: 1 })).structuredContent).toMatchObject({ error: "invalid_request" });
    expect((await call(anon, "catalog_preflight", { server_name: "io.github.acme/nope" })).structuredContent).toMatchObject({ error: "not_found" });
    expect((await call(anon, "catalog_preflight", { server_name: "io.github.acme/weather", refresh: "if_stale" })).structuredContent).toMatchObject({ error: "unauthorized" });
    const poor = await keyedAccount(db, { credits: 2 });
    const r = await call(await client({ key: poor.key }), "catalog_preflight", { server_name: "io.github.acme/weather" });
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toMatchObject({ ok: false, error: "payment_required" });
    // a tool that meters or needs a key refuses an invalid one; a keyless tool does not read it (as REST)
    const badKey = await client({ key: "catk_definitely-not-valid" });
    expect((await call(badKey, "catalog_search", { q: "weather" })).structuredContent).toMatchObject({ error: "unauthorized" });
    expect((await call(badKey, "catalog_credits")).structuredContent).toMatchObject({ error: "unauthorized" });
    const keyless = await call(badKey, "catalog_policy_list");
    expect(keyless.isError).toBeFalsy();
    expect(keyless.structuredContent).toMatchObject({ ok: true });
  });

  it("says what is wrong with an argument of the wrong type instead of calling it missing, and takes no boolean or array for a limit", async () => {
    const c = await client();
    const err = async (name: string, args: Record<string, unknown>) => (await call(c, name, args)).structuredContent;
    expect(await err("catalog_search", {})).toMatchObject({ error: "invalid_request", message: "q: q is required" });
    for (const q of [5, null, ["weather"]]) expect(await err("catalog_search", { q })).toMatchObject({ error: "invalid_request", message: "q: q must be a string" });
    for (const limit of [true, [2], "1e2", "0x10", 2.5]) {
      expect(await err("catalog_changes", { limit }), JSON.stringify(limit)).toMatchObject({ error: "invalid_request", message: "limit: limit must be an integer from 1 to 500" });
    }
    for (const limit of [2, "2"]) expect((await call(c, "catalog_changes", { limit })).structuredContent).toMatchObject({ ok: true });
  });

  it("refuses a limit past 2^53, a fraction or one out of range with the range, in the words REST uses", async () => {
    const c = await client();
    const viaMcp = async (limit: unknown) => (await call(c, "catalog_search", { q: "weather", limit })).structuredContent;
    const viaRest = async (limit: string) => (await searchGet(request(`/v1/search?q=weather&limit=${encodeURIComponent(limit)}`))).json();
    const outOfRange = { ok: false, error: "invalid_request", message: "limit: limit must be from 1 to 50" };
    // a JSON number past 2^53 is an integer all the same: zod's int() answered "Too big: expected int to be <=9007199254740991"
    for (const limit of [1e20, 2 ** 53, -1e300, 0, 51, -1]) {
      expect(await viaMcp(limit), String(limit)).toMatchObject(outOfRange);
      expect(await viaRest(BigInt(limit).toString()), String(limit)).toEqual(outOfRange);
    }
    expect(await viaRest("9".repeat(400))).toEqual(outOfRange);
    const notInteger = { ok: false, error: "invalid_request", message: "limit: limit must be an integer from 1 to 50" };
    for (const limit of [2.5, 0.1, "2.5", "1e2", true, null]) expect(await viaMcp(limit), JSON.stringify(limit)).toMatchObject(notInteger);
    for (const limit of ["2.5", "1e2", "true", ""]) expect(await viaRest(limit), limit).toEqual(notInteger);
  });

  it("trims q before checking its length, on MCP as on REST", async () => {
    const a = await keyedAccount(db, { credits: 100 });
    const c = await client({ key: a.key });
    const tooShort = { ok: false, error: "invalid_request", message: "q: q must be at least 2 characters, not counting whitespace at either end" };
    for (const q of [" a ", "a", "\t\n w \u00a0"]) {
      expect((await call(c, "catalog_search", { q })).structuredContent, JSON.stringify(q)).toEqual(tooShort);
      expect(await (await searchGet(request(`/v1/search?q=${encodeURIComponent(q)}`, { key: a.key }))).json(), JSON.stringify(q)).toEqual(tooShort);
    }
    const padded = await call(c, "catalog_search", { q: "  weather  " });
    const rest = await (await searchGet(request(`/v1/search?q=${encodeURIComponent("  weather  ")}`, { key: a.key }))).json();
    expect(padded.structuredContent.query).toBe("weather");
    expect(padded.structuredContent).toEqual(rest);
  });

  it("lists every argument with its words and its default, converted from the schema the tool and its REST twin parse with", async () => {
    const { tools } = await (await client()).listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    const props = (name: string) => byName.get(name)!.inputSchema.properties as Record<string, Record<string, unknown>>;
    for (const t of tools) {
      for (const [arg, schema] of Object.entries(t.inputSchema.properties ?? {})) {
        expect((schema as { description?: string }).description, `${t.name}.${arg}`).toMatch(/\w{3}/);
      }
    }
    // defaults a client can show, pipes' included (the SDK's conversion dropped limit's and strict's)
    expect(props("catalog_search").limit).toMatchObject({ default: 20, minimum: 1, maximum: 50, description: "how many results, 1 to 50 (default 20)" });
    expect(props("catalog_search").limit.anyOf).toEqual([{ type: "integer" }, { type: "string", pattern: "^0*(?:[1-9]|[1-4][0-9]|50)$" }]);
    expect(props("catalog_recent").limit).toMatchObject({ default: 20, maximum: 100 });
    expect(props("catalog_changes").limit).toMatchObject({ default: 100, maximum: 500 });
    expect(props("catalog_audit_config").strict).toMatchObject({ default: false });
    for (const tool of ["catalog_preflight", "catalog_stamp", "catalog_audit_config"]) expect(props(tool).policy_id, tool).toMatchObject({ default: "builtin:baseline" });
    expect(props("catalog_preflight").refresh).toMatchObject({ default: "never", enum: ["never", "if_stale"] });
    // q is trimmed before its length is checked, which JSON Schema cannot say: the words do
    expect(props("catalog_search").q).toMatchObject({ type: "string", minLength: 2, maxLength: 200, description: expect.stringMatching(/2 to 200 characters after whitespace at either end is trimmed/) });
    expect(props("catalog_watch_subscribe").webhook_url).toMatchObject({ type: "string", format: "uri", maxLength: 2048 });
    expect(byName.get("catalog_watch_subscribe")!.description).toMatch(/belongs to the same account as the API key/);
    const audit = byName.get("catalog_audit_config")!;
    expect(audit.description).toMatch(/the file at most 256 KiB, one audit at most 100 server entries with an API key; without a key one config of up to 25 entries/);
    expect(props("catalog_audit_config").config.description).toMatch(/at most 256 KiB/);
    // one source: each argument of a tool with a REST twin is that twin's parameter or body field, word for word
    const doc = buildOpenApiDocument("http://localhost") as { paths: Record<string, Record<string, any>>; components: { schemas: Record<string, any> } };
    let compared = 0;
    for (const op of API_OPERATIONS) {
      if (!op.mcpTool || !byName.has(op.mcpTool)) continue;
      const listed = props(op.mcpTool);
      for (const p of doc.paths[op.path][op.method].parameters ?? []) {
        if (p.in !== "query" || op.path === "/v1/stamp") continue; // the stamp's query says name for server_name
        expect(listed[p.name], `${op.mcpTool}.${p.name}`).toEqual(p.schema);
        compared++;
      }
      const body = op.body && "component" in op.body ? doc.components.schemas[op.body.component] : undefined;
      if (body) {
        expect(listed, op.mcpTool).toEqual(body.properties);
        compared++;
      }
    }
    expect(compared).toBeGreaterThanOrEqual(12);
  });

  it("puts the quota headers of a metered tool call on the HTTP response, as REST does", async () => {
    const a = await keyedAccount(db, { credits: 100 });
    const rpc = (name: string, args: Record<string, unknown>, key?: string) =>
      mcpPost(
        request("/mcp", {
          method: "POST",
          key,
          headers: { accept: "application/json, text/event-stream" },
          body: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } },
        }),
      );
    const anonymous = await rpc("catalog_search", { q: "weather" });
    expect(anonymous.status).toBe(200);
    expect([anonymous.headers.get("x-tier"), anonymous.headers.get("x-ratelimit-remaining"), anonymous.headers.get("x-credits-remaining")]).toEqual(["free", "9", null]);
    const keyed = await rpc("catalog_preflight", { server_name: "io.github.acme/weather" }, a.key);
    expect((await keyed.json()).result.isError).toBeFalsy();
    expect([keyed.headers.get("x-tier"), keyed.headers.get("x-credits-remaining")]).toEqual(["registered", "95"]);
    // refused (unknown server) still says where the caller stands; an unmetered tool has no quota headers
    expect((await rpc("catalog_lookup", { name: "io.github.acme/nope" }, a.key)).headers.get("x-credits-remaining")).toBe("95");
    expect((await rpc("catalog_stats", {})).headers.get("x-tier")).toBeNull();
    // a key-only tool reads the key: its answer says where the caller stands, as GET /v1/credits does (docs/mcp.md)
    const credits = await rpc("catalog_credits", {}, a.key);
    expect([credits.headers.get("x-tier"), credits.headers.get("x-credits-remaining")]).toEqual(["registered", "95"]);
    expect(credits.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/);
  });

  it("describes a keyless caller's audit allowance on a refused catalog_audit_config, as POST /v1/audit does", async () => {
    const rpc = (args: Record<string, unknown>) =>
      mcpPost(
        request("/mcp", {
          method: "POST",
          ip: "203.0.113.70",
          headers: { accept: "application/json, text/event-stream" },
          body: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "catalog_audit_config", arguments: args } },
        }),
      );
    const window = (res: Response) => [res.headers.get("x-ratelimit-resource"), res.headers.get("x-ratelimit-limit"), res.headers.get("x-ratelimit-remaining")];
    const entries = (n: number) => JSON.stringify({ mcpServers: Object.fromEntries(Array.from({ length: n }, (_, i) => [`s${i}`, { command: "npx", args: ["-y", `pkg-${i}`] }])) });
    expect(window(await rpc({ config: entries(1) }))).toEqual(["audits", "1", "0"]);
    const tooMany = await rpc({ config: entries(26) });
    expect((await tooMany.json()).result.structuredContent).toMatchObject({ ok: false, error: "payload_too_large" });
    expect(window(tooMany)).toEqual(["audits", "1", "0"]);
  });

  it("gives a batch of paid calls the headers of the least left: the wallet after every call and the burst window's fewest", async () => {
    const a = await keyedAccount(db, { credits: 100 });
    const names = ["io.github.acme/weather", "com.example/remote-only", "io.github.bob/no-repo", "io.github.carol/old"];
    // the burst window is the clock's minute, and the headers describe it as the answer goes out: held at this
    // minute's start, the batch never straddles two (once in CI the answer's window was a fresh one, 60 left)
    vi.useFakeTimers({ toFake: ["Date"], now: Math.floor(Date.now() / 60_000) * 60_000 + 1000 });
    try {
      const res = await mcpPost(
        request("/mcp", {
          method: "POST",
          key: a.key,
          headers: { accept: "application/json, text/event-stream" },
          body: names.map((server_name, i) => ({ jsonrpc: "2.0", id: i + 1, method: "tools/call", params: { name: "catalog_preflight", arguments: { server_name } } })),
        }),
      );
      const answers = (await res.json()) as { result: { isError?: boolean } }[];
      expect(answers.map((x) => x.result.isError ?? false)).toEqual([false, false, false, false]);
      expect(await walletRemaining(db, a.accountId)).toBe(80);
      expect(res.headers.get("x-credits-remaining")).toBe("80");
      expect(res.headers.get("x-ratelimit-remaining")).toBe(String(60 - names.length));
    } finally {
      vi.useRealTimers();
    }
  });

  it("answers a tools/call whose params are not a tool call with -32602 Invalid params, not an internal error", async () => {
    const send = async (params: unknown, headers: Record<string, string> = {}) => {
      const res = await mcpPost(
        request("/mcp", { method: "POST", headers: { accept: "application/json, text/event-stream", ...headers }, body: { jsonrpc: "2.0", id: 7, method: "tools/call", ...(params === undefined ? {} : { params }) } }),
      );
      return { status: res.status, body: await res.json() };
    };
    for (const [params, what] of [
      [{ name: 5 }, "params.name"],
      [undefined, "params"],
      [{ name: "catalog_stats", arguments: [] }, "params.arguments"],
    ] as const) {
      const { status, body } = await send(params);
      expect(status).toBe(200);
      expect(body).toEqual({ jsonrpc: "2.0", id: 7, error: { code: -32602, message: expect.stringMatching(new RegExp(`^Invalid params: ${what.replace(".", "\\.")}: `)) } });
    }
    // what the transport checks first keeps its own answer
    expect((await send({ name: 5 }, { accept: "application/json" })).status).toBe(406);
  });

  it("counts a key's watch-list calls in its burst window like REST and answers rate_limited past 60 a minute", async () => {
    const a = await keyedAccount(db, { credits: 100 });
    const c = await client({ key: a.key });
    // the burst window is the clock's minute: the clock held at this minute's start, so 61 calls never straddle two
    vi.useFakeTimers({ toFake: ["Date"], now: Math.floor(Date.now() / 60_000) * 60_000 + 1000 });
    try {
      for (let i = 0; i < 60; i++) expect((await call(c, "catalog_watch_list")).isError, `call ${i + 1}`).toBeFalsy();
      const over = await call(c, "catalog_watch_list");
      expect(over.structuredContent).toMatchObject({ ok: false, error: "rate_limited", retry_after: expect.any(Number) });
      // the same window as the key's REST calls
      expect((await creditsGet(request("/v1/credits", { key: a.key }))).status).toBe(429);
    } finally {
      vi.useRealTimers();
    }
  });

  // JSON-RPC: -32602 Invalid params for params that do not fit the method. The SDK's -32603 Internal error with a raw
  // validation dump was turned into -32602 only for a single tools/call; a batch (protocol 2025-03-26, which the SDK
  // still negotiates and whose transport still takes arrays) and other methods kept it.
  it("answers params that do not fit their method with -32602 for every method, inside a batch too, and an unknown tool as a protocol error", async () => {
    const post = async (body: unknown) => {
      const res = await mcpPost(request("/mcp", { method: "POST", headers: { accept: "application/json, text/event-stream" }, body }));
      return { status: res.status, body: await res.json() };
    };
    const invalid = (id: number, field: string) => ({ jsonrpc: "2.0", id, error: { code: -32602, message: expect.stringMatching(new RegExp(`^Invalid params: ${field.replace(".", "\\.")}: `)) } });
    const batch = await post([
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: 5 } },
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "catalog_stats", arguments: [] } },
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "catalog_policy_list", arguments: {} } },
    ]);
    expect(batch.status).toBe(200);
    expect(batch.body).toHaveLength(3);
    expect(batch.body[0]).toEqual(invalid(1, "params.name"));
    expect(batch.body[1]).toEqual(invalid(2, "params.arguments"));
    expect(batch.body[2].result.structuredContent).toMatchObject({ ok: true });
    expect((await post({ jsonrpc: "2.0", id: 4, method: "tools/list", params: { cursor: 5 } })).body).toEqual(invalid(4, "params.cursor"));
    // the list has no nextCursor, so a string cursor was never issued: -32602 (MCP pagination), not the whole list
    expect((await post({ jsonrpc: "2.0", id: 4, method: "tools/list", params: { cursor: "abc" } })).body).toEqual(invalid(4, "params.cursor"));
    expect((await post({ jsonrpc: "2.0", id: 5, method: "initialize", params: {} })).body).toEqual(invalid(5, "params.protocolVersion"));
    // the spec's example of a protocol error: an unknown tool is not a tool result (it has no REST Error body)
    const unknownTool = { code: -32602, message: "Unknown tool: catalog_nope" };
    expect((await post({ jsonrpc: "2.0", id: 6, method: "tools/call", params: { name: "catalog_nope", arguments: {} } })).body).toEqual({ jsonrpc: "2.0", id: 6, error: unknownTool });
    // a batch is answered with an array, also a batch of one (JSON-RPC 2.0)
    expect((await post([{ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "catalog_nope" } }])).body).toEqual([{ jsonrpc: "2.0", id: 7, error: unknownTool }]);
  });

  // MCP (2025-06-18 and later): "a tool that returns structured content SHOULD also return the serialized JSON in a
  // TextContent block". Many clients give the model only the text: a one-line summary there lost a watch's secret,
  // which is shown once, and every reason but the first.
  it("also gives every result's structured content as JSON text, so a client that reads only text loses nothing", async () => {
    const a = await keyedAccount(db, { credits: 100 });
    const c = await client({ key: a.key });
    const created = await call(c, "catalog_watch_subscribe", { server_name: "io.github.acme/weather", email: "ops@example.com" });
    expect(created.isError).toBeFalsy();
    expect(created.structuredContent.secret).toMatch(/^whsec_/);
    expect(created.content[0].text).toMatch(/^created watch wat_/);
    expect(created.content.map((b) => b.type)).toEqual(["text", "text"]);
    expect(JSON.parse(created.content[1].text)).toEqual(created.structuredContent);
    const refused = await call(c, "catalog_lookup", { name: "io.github.acme/nope" });
    expect(refused.isError).toBe(true);
    expect(refused.content[0].text).toMatch(/^not_found: /);
    expect(JSON.parse(refused.content[1].text)).toEqual(refused.structuredContent);
  });

  // RFC 9110 §8.3.1 and §12.5.1: type and subtype are case-insensitive. The SDK's transport looked for the lower-case
  // strings and answered these headers with 406 Not Acceptable and 415 Unsupported Media Type.
  it("takes the Accept and Content-Type media types in any case, and still refuses other types", async () => {
    const post = async (headers: Record<string, string>) => {
      const res = await mcpPost(
        new Request("http://localhost/mcp", {
          method: "POST",
          headers,
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "catalog_policy_list", arguments: {} } }),
        }),
      );
      return { status: res.status, body: await res.json() };
    };
    for (const headers of [
      { accept: "Application/JSON, Text/Event-Stream", "content-type": "Application/JSON" },
      { accept: "TEXT/EVENT-STREAM;q=0.9, APPLICATION/JSON", "content-type": "application/JSON; Charset=UTF-8" },
    ]) {
      const { status, body } = await post(headers);
      expect(status, JSON.stringify(headers)).toBe(200);
      expect(body.result.structuredContent, JSON.stringify(headers)).toMatchObject({ ok: true, audit_signed: false });
    }
    expect((await post({ accept: "Application/JSON", "content-type": "Application/JSON" })).status).toBe(406);
    expect((await post({ accept: "Application/JSON, Text/Event-Stream", "content-type": "Text/Plain" })).status).toBe(415);
  });

  // JSON-RPC 2.0: valid JSON that is not a request (an object without jsonrpc/method, an empty or non-message batch)
  // is -32600 Invalid Request, not -32700 Parse error (the SDK's answer) nor a 202 with no body (an empty batch);
  // a body over the cap is a JSON-RPC error like every other answer of /mcp, not the REST Error body.
  it("answers JSON that is not a JSON-RPC message with -32600 Invalid Request, and an oversized body with a JSON-RPC 413", async () => {
    const post = async (body: string) => {
      const res = await mcpPost(
        new Request("http://localhost/mcp", { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body }),
      );
      return { status: res.status, body: await res.json() };
    };
    for (const body of ['{"hello":1}', "[]", "[1]", '{"jsonrpc":"2.0","id":1.5,"method":"ping"}', "5"]) {
      expect(await post(body), body).toEqual({ status: 400, body: { jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.stringMatching(/^Invalid Request: /) } } });
    }
    expect(await post("{")).toEqual({ status: 400, body: { jsonrpc: "2.0", id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error/) } } });
    const big = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "catalog_search", arguments: { q: "x".repeat(1100 * 1024) } } });
    expect(await post(big)).toEqual({ status: 413, body: { jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.stringMatching(/over the 1048576-byte limit/) } } });
  });

  // A batch's requests run at once and their answers are joined into one body: a 48 KB batch of tools/list built a
  // 105 MB answer, and a 1 MiB one a string past V8's limit (the request then hung, holding gigabytes).
  it("refuses a batch of more than MCP_MAX_BATCH_MESSAGES messages before running any of them", async () => {
    const batch = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ jsonrpc: "2.0", id: i + 1, method: "tools/call", params: { name: "catalog_search", arguments: { q: `weather ${i}` } } }));
    const post = async (body: unknown) => {
      const res = await mcpPost(request("/mcp", { method: "POST", ip: "192.0.2.61", headers: { accept: "application/json, text/event-stream" }, body }));
      return { status: res.status, body: await res.json() };
    };
    const over = await post(batch(MCP_MAX_BATCH_MESSAGES + 1));
    expect(over).toEqual({
      status: 400,
      body: { jsonrpc: "2.0", id: null, error: { code: -32600, message: `Invalid Request: the batch holds ${MCP_MAX_BATCH_MESSAGES + 1} messages; send at most ${MCP_MAX_BATCH_MESSAGES} in one request` } },
    });
    // nothing ran: the one search of the batch that fits is the caller's first look-up of the day
    const pings = Array.from({ length: MCP_MAX_BATCH_MESSAGES - 1 }, (_, i) => ({ jsonrpc: "2.0", id: 100 + i, method: "ping" }));
    const fits = await post([...pings, batch(1)[0]]);
    expect(fits.status).toBe(200);
    expect(fits.body).toHaveLength(MCP_MAX_BATCH_MESSAGES);
    expect(fits.body.at(-1).result.structuredContent).toMatchObject({ ok: true });
    const after = await mcpPost(request("/mcp", { method: "POST", ip: "192.0.2.61", headers: { accept: "application/json, text/event-stream" }, body: batch(1)[0] }));
    expect(after.headers.get("x-ratelimit-remaining")).toBe("9");
  });

  it("refuses a batch whose requests share an id before running any of them", async () => {
    const post = (body: unknown) => mcpPost(request("/mcp", { method: "POST", ip: "192.0.2.62", headers: { accept: "application/json, text/event-stream" }, body }));
    const search = (id: unknown, q: string) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "catalog_search", arguments: { q } } });
    const res = await post([search(7, "weather one"), { jsonrpc: "2.0", id: 8, method: "ping" }, search(7, "weather two")]);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request: the batch holds more than one request with id 7; each request needs its own id" } });
    // nothing ran (no look-up spent), and the number 7 and the string "7" are different ids
    const ok = await post([search(7, "weather one"), search("7", "weather two")]);
    expect(ok.status).toBe(200);
    expect((await ok.json()).map((m: { id: unknown }) => m.id)).toEqual([7, "7"]);
    expect(ok.headers.get("x-ratelimit-remaining")).toBe("8");
  });

  // The SDK drops the answer of a request a notifications/cancelled names, and a batch's JSON answer waits for every
  // request's answer: the HTTP request never ended (and its server was never released).
  it("answers a batch that cancels one of its own requests instead of leaving the request hanging", async () => {
    const res = mcpPost(
      request("/mcp", {
        method: "POST",
        headers: { accept: "application/json, text/event-stream" },
        body: [
          { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "catalog_policy_list", arguments: {} } },
          { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason: "changed my mind" } },
          { jsonrpc: "2.0", id: 2, method: "ping" },
        ],
      }),
    );
    const answered = await Promise.race([res, new Promise<"hung">((r) => setTimeout(() => r("hung"), 5_000))]);
    expect(answered).not.toBe("hung");
    const body = await (answered as Response).json();
    expect(body.map((m: { id: number }) => m.id)).toEqual([1, 2]);
    expect(body[0].result.structuredContent).toMatchObject({ ok: true });
  });

  // JSON-RPC batches are protocol 2025-03-26 only: 2025-06-18 removed them ("the body of the POST request MUST be a
  // single JSON-RPC request, notification, or response"), and a stateless endpoint knows the negotiated revision from
  // the MCP-Protocol-Version header alone. A batch sent under a later revision ran, answered with an array.
  it("refuses a batch sent under a protocol revision without batches (2025-06-18 on), before running any of it", async () => {
    const post = async (body: unknown, version?: string) => {
      const headers: Record<string, string> = { accept: "application/json, text/event-stream", ...(version ? { "mcp-protocol-version": version } : {}) };
      const res = await mcpPost(request("/mcp", { method: "POST", ip: "192.0.2.63", headers, body }));
      return { status: res.status, body: await res.json() };
    };
    const search = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "catalog_search", arguments: { q: `weather ${id}` } } });
    for (const version of ["2025-06-18", "2025-11-25"]) {
      expect(await post([search(1), search(2)], version), version).toEqual({
        status: 400,
        body: { jsonrpc: "2.0", id: null, error: { code: -32600, message: `Invalid Request: protocol ${version} has no JSON-RPC batches (2025-06-18 removed them); send one message per request` } },
      });
    }
    // nothing ran: this is the IP's first look-up of the day; 2025-03-26 (and no header, which means it) takes batches
    for (const version of ["2025-03-26", undefined]) {
      const ok = await post([{ jsonrpc: "2.0", id: 1, method: "ping" }, { jsonrpc: "2.0", id: 2, method: "ping" }], version);
      expect(ok, String(version)).toEqual({ status: 200, body: [expect.objectContaining({ id: 1, result: {} }), expect.objectContaining({ id: 2, result: {} })] });
    }
    const single = await mcpPost(request("/mcp", { method: "POST", ip: "192.0.2.63", headers: { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" }, body: search(3) }));
    expect(single.status).toBe(200);
    expect(single.headers.get("x-ratelimit-remaining")).toBe("9");
  });

  // MCP 2025-11-25 (which the SDK negotiates), Tasks: "Receivers that do not declare the task capability for a request
  // type MUST process requests of that type normally, ignoring any task-augmentation metadata". We declare no `tasks`
  // capability; the SDK answered a tools/call carrying `task` with -32603 "Server does not support task creation".
  it("runs a task-augmented tools/call as a normal call, since it declares no tasks capability", async () => {
    const post = async (body: unknown) => {
      const res = await mcpPost(request("/mcp", { method: "POST", headers: { accept: "application/json, text/event-stream" }, body }));
      return res.json();
    };
    const init = await post({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } });
    expect(init.result.protocolVersion).toBe("2025-11-25");
    expect(init.result.capabilities.tasks).toBeUndefined();
    const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "catalog_policy_list", arguments: {}, task: { ttl: 60_000 } } };
    const single = await post(call);
    expect(single.error).toBeUndefined();
    expect(single.result.structuredContent).toMatchObject({ ok: true });
    expect(single.result.task).toBeUndefined();
    const batch = await post([call, { ...call, id: 3, params: { name: "catalog_stats", arguments: {}, task: {} } }]);
    expect(batch.map((m: { result?: { structuredContent?: unknown } }) => m.result?.structuredContent)).toEqual([
      expect.objectContaining({ ok: true, policies: expect.any(Array) }),
      expect.objectContaining({ ok: true }),
    ]);
  });

  describe("past the burst limit", () => {
    beforeEach(() => void vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-03-10T12:00:05.000Z") }));
    afterEach(() => void vi.useRealTimers());
    it("a refused metered tool call still carries the quota headers, as the REST 429 does", async () => {
      const rpc = () =>
        mcpPost(
          request("/mcp", {
            method: "POST",
            headers: { accept: "application/json, text/event-stream" },
            body: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "catalog_lookup", arguments: { name: "io.github.acme/nope" } } },
          }),
        );
      for (let i = 0; i < 30; i++) expect((await rpc()).headers.get("x-ratelimit-resource")).not.toBeNull();
      const over = await rpc();
      const body = await over.json();
      expect(body.result.structuredContent).toMatchObject({ error: "rate_limited", retry_after: 55 });
      expect([over.headers.get("x-tier"), over.headers.get("x-ratelimit-resource"), over.headers.get("x-ratelimit-remaining")]).toEqual(["free", "burst", "0"]);
      expect(over.headers.get("ratelimit")).toContain(`"burst";r=0;t=55`);
    });
  });

  it("counts anonymous lookups per IP like REST and answers rate_limited past 10 distinct ones", async () => {
    const { listing, loadFixtureCatalog: load } = await import("../helpers/catalog-fixture");
    await load(db, Array.from({ length: 11 }, (_, i) => listing({ name: `io.github.many/s${i}` })));
    const c = await client({ ip: "192.0.2.99" });
    for (let i = 0; i < 10; i++) expect((await call(c, "catalog_preflight", { server_name: `io.github.many/s${i}` })).isError).toBeFalsy();
    const over = await call(c, "catalog_preflight", { server_name: "io.github.many/s10" });
    expect(over.structuredContent).toMatchObject({ ok: false, error: "rate_limited", retry_after: expect.any(Number), reset_at: expect.any(String) });
  });
});
