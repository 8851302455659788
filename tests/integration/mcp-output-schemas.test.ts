import { beforeEach, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { Db } from "@/lib/db/client";
import { TOOL_NAMES } from "@/lib/mcp/register-tools";
import { API_OPERATIONS } from "@/lib/openapi/operations";
import { POST as watchPost } from "@/app/v1/watch/route";
import { onOneDatabase, resetDb } from "../helpers/db";
import { keyedAccount, listing, loadFixtureCatalog, request } from "../helpers/catalog-fixture";
import { mcpClients } from "../helpers/mcp-client";

// MCP 2025-06-18, "Output schema": a server that gives a tool an outputSchema MUST return structured content
// that conforms to it, and clients SHOULD validate it. The SDK's Client does, with ajv and ajv-formats, for
// every tool it has seen in tools/list, on error results too; a mismatch makes callTool throw. So every call
// below goes through a client that listed the tools first, and is checked once more, explicitly, by the SDK's
// validator and by a JSON Schema 2020-12 validator (MCP's default dialect), to say which field failed.

const IDN_SERVER = "io.github.acme/idn-remote";
let db: Db;
beforeEach(async () => {
  db = await resetDb();
  // a remote on an internationalized host: WHATWG URL parses it (so it is evidence with a url), RFC 3986 `uri` does not
  await loadFixtureCatalog(db, [listing({ name: IDN_SERVER, remotes: [{ type: "streamable-http", url: "https://mcp.例え.jp/mcp" }] })]);
});
const mcp = mcpClients();

const sdkValidator = new AjvJsonSchemaValidator();
const ajv2020 = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv2020);

type Result = { isError?: boolean; structuredContent?: Record<string, unknown> };

/** A client that has listed the tools (so it validates what they answer) and the output schemas it was given. */
async function listingClient(opts: { key?: string } = {}): Promise<{ client: Client; schemas: Map<string, Tool["outputSchema"]> }> {
  const client = await mcp.connect(opts);
  const { tools } = await client.listTools();
  return { client, schemas: new Map(tools.map((t) => [t.name, t.outputSchema])) };
}

/** Calls through the SDK client (which throws on a mismatch) and checks the structured content against the schema again. */
async function callChecked(c: { client: Client; schemas: Map<string, Tool["outputSchema"]> }, name: string, args: Record<string, unknown>): Promise<Result> {
  const schema = c.schemas.get(name);
  expect(schema, `${name} has no outputSchema`).toBeDefined();
  const result = (await c.client.callTool({ name, arguments: args })) as Result;
  expect(result.structuredContent, name).toBeDefined();
  const bySdk = sdkValidator.getValidator(schema!)(result.structuredContent);
  expect(bySdk.errorMessage, `${name} (SDK validator)`).toBeUndefined();
  const by2020 = ajv2020.compile(schema!);
  by2020(result.structuredContent);
  expect(by2020.errors ?? [], `${name} (JSON Schema 2020-12)`).toEqual([]);
  return result;
}

const CONFIG = JSON.stringify({ mcpServers: { weather: { command: "npx", args: ["-y", "@acme/mcp-weather"] } } });
const NO_WATCH = "wat_0000000000000000";

interface Case {
  tool: string;
  ok: Record<string, unknown>;
  /** Arguments that fail, the `error` they fail with, and whether the call is made without a key. */
  fail: { args: Record<string, unknown>; error: string; anonymous?: boolean };
}

// every tool once answered and once refused; `id: "<watch>"` is replaced by a watch of the calling account
const CASES: Case[] = [
  { tool: "catalog_search", ok: { q: "weather", limit: 5 }, fail: { args: { q: "x" }, error: "invalid_request" } },
  { tool: "catalog_lookup", ok: { name: "io.github.acme/weather" }, fail: { args: { name: "io.github.acme/nope" }, error: "not_found" } },
  { tool: "catalog_lookalikes", ok: { name: "io.github.acme/weather" }, fail: { args: { name: "io.github.acme/nope" }, error: "not_found" } },
  { tool: "catalog_stats", ok: {}, fail: { args: { verbose: true }, error: "invalid_request" } },
  { tool: "catalog_recent", ok: { limit: 3 }, fail: { args: { limit: 0 }, error: "invalid_request" } },
  { tool: "catalog_coverage", ok: {}, fail: { args: { detail: 1 }, error: "invalid_request" } },
  { tool: "catalog_changes", ok: {}, fail: { args: { since: "not-a-cursor" }, error: "invalid_request" } },
  {
    tool: "catalog_watch_subscribe",
    ok: { server_name: "io.github.acme/weather", email: "ops@example.com" },
    fail: { args: { server_name: "io.github.acme/nope", email: "ops@example.com" }, error: "not_found" },
  },
  { tool: "catalog_watch_list", ok: {}, fail: { args: {}, error: "unauthorized", anonymous: true } },
  { tool: "catalog_watch_unsubscribe", ok: { id: "<watch>" }, fail: { args: { id: NO_WATCH }, error: "not_found" } },
  { tool: "catalog_preflight", ok: { server_name: IDN_SERVER, policy_id: "builtin:strict" }, fail: { args: { server_name: "io.github.acme/nope" }, error: "not_found" } },
  { tool: "catalog_stamp", ok: { server_name: "io.github.acme/weather" }, fail: { args: { server_name: "" }, error: "invalid_request" } },
  { tool: "catalog_audit_config", ok: { config: CONFIG, strict: true }, fail: { args: { config: "{ not json" }, error: "invalid_request" } },
  { tool: "catalog_credits", ok: {}, fail: { args: {}, error: "unauthorized", anonymous: true } },
  { tool: "catalog_policy_list", ok: {}, fail: { args: { verbose: true }, error: "invalid_request" } },
];

/** What each tool's REST twin answers (its OpenAPI component); the stamp's twin answers text, the tool an object. */
const twinComponent = (tool: string) => API_OPERATIONS.find((op) => op.mcpTool === tool)?.response.component ?? (tool === "catalog_stamp" ? "StampResult" : undefined);

// the schemas and the answers' shapes do not depend on the database (tests/helpers/db.ts onOneDatabase)
describe.runIf(onOneDatabase)("MCP output schemas", () => {
  it("covers every tool", () => {
    expect(CASES.map((c) => c.tool).sort()).toEqual([...TOOL_NAMES].sort());
  });

  it("gives every tool an outputSchema: anyOf its REST twin's resource and the Error body, titled as in /v1/openapi.json", async () => {
    const { tools } = await (await mcp.connect()).listTools();
    expect(tools).toHaveLength(TOOL_NAMES.length);
    for (const t of tools) {
      const schema = t.outputSchema as { type: string; anyOf?: { title?: string; type?: string }[] } | undefined;
      expect(schema?.type, t.name).toBe("object");
      expect(schema?.anyOf?.map((s) => s.title), t.name).toEqual([twinComponent(t.name), "Error"]);
      expect(schema?.anyOf?.map((s) => s.type), t.name).toEqual(["object", "object"]);
      // formats the SDK client's ajv checks more strictly than our zod schemas (RFC 3986 uri, its e-mail rule)
      expect(JSON.stringify(schema), t.name).not.toMatch(/"format":"(uri|email)"/);
    }
  });

  it("says the tool list never changes (tools.listChanged false), since no list_changed notification is ever sent", async () => {
    const client = await mcp.connect();
    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: false });
  });

  it.each(CASES)("$tool: an answer and a refusal both match its outputSchema, as the SDK client checks", async ({ tool, ok, fail }) => {
    const a = await keyedAccount(db, { credits: 100 });
    const keyed = await listingClient({ key: a.key });
    const args = ok.id === "<watch>" ? { id: ((await callChecked(keyed, "catalog_watch_subscribe", CASES[7].ok)).structuredContent!.watch as { id: string }).id } : ok;
    const answered = await callChecked(keyed, tool, args);
    expect(answered.isError, JSON.stringify(answered.structuredContent)).toBeFalsy();
    expect(answered.structuredContent).toMatchObject({ ok: true });

    const refused = await callChecked(fail.anonymous ? await listingClient() : keyed, tool, fail.args);
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ ok: false, error: fail.error });
  });

  it("matches with the fields a refusal can carry (retry_after, reset_at) and with values zod takes that RFC 3986 and ajv's e-mail rule refuse", async () => {
    const a = await keyedAccount(db, { credits: 100 });
    const keyed = await listingClient({ key: a.key });
    // a webhook path with "|" (WHATWG keeps it, RFC 3986 does not) and an e-mail domain label ending in "-"
    const watch = await callChecked(keyed, "catalog_watch_subscribe", { server_name: "io.github.acme/weather", webhook_url: "https://127.0.0.1:8443/hooks/a|b", email: "ops@mail-.example.com" });
    expect(watch.structuredContent!.watch).toMatchObject({ webhook_url: "https://127.0.0.1:8443/hooks/a|b", email: "ops@mail-.example.com" });
    expect((await callChecked(keyed, "catalog_watch_list", {})).structuredContent).toMatchObject({ count: 1 });
    // the preflight of a remote on an internationalized host cites it as evidence
    const preflight = await callChecked(keyed, "catalog_preflight", { server_name: IDN_SERVER });
    expect(JSON.stringify(preflight.structuredContent)).toContain('"url":"https://mcp.例え.jp/mcp"');

    // an anonymous IP's eleventh distinct lookup of the day: rate_limited with retry_after and reset_at
    await loadFixtureCatalog(db, Array.from({ length: 11 }, (_, i) => listing({ name: `io.github.many/s${i}` })));
    const anonymous = await listingClient();
    for (let i = 0; i < 10; i++) expect((await callChecked(anonymous, "catalog_lookup", { name: `io.github.many/s${i}` })).isError).toBeFalsy();
    const over = await callChecked(anonymous, "catalog_lookup", { name: "io.github.many/s10" });
    expect(over.structuredContent).toMatchObject({ ok: false, error: "rate_limited", retry_after: expect.any(Number), reset_at: expect.any(String) });
  });
});
