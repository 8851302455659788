import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { startServer, type RunningServer } from "./helpers/server";
import { connectMcp } from "../tests/helpers/mcp-client";
import { FIXTURE_SERVERS } from "../tests/helpers/catalog-fixture";
import { TOOL_NAMES } from "../lib/mcp/register-tools";

// The /mcp endpoint as an agent meets it: the SDK's own client over streamable
// HTTP against the production server (next start behind scripts/server.mjs).
describe("/mcp against the running server", () => {
  const SECRET = "e2e-operator-secret";
  let server: RunningServer;
  let key: string;
  const clients: Client[] = [];
  const connect = async (opts: { key?: string } = {}) => {
    const c = await connectMcp(server.url, opts);
    clients.push(c);
    return c;
  };
  const call = (c: Client, name: string, args: Record<string, unknown> = {}) =>
    c.callTool({ name, arguments: args }) as Promise<{ isError?: boolean; structuredContent?: any; content: { text: string }[] }>;

  beforeAll(async () => {
    server = await startServer({ CRON_SECRET: SECRET });
    const auth = { authorization: `Bearer ${SECRET}` };
    const ingest = await fetch(`${server.url}/api/cron/ingest?origin=e2e`, { method: "POST", headers: auth, body: JSON.stringify({ servers: FIXTURE_SERVERS }) });
    expect(ingest.status).toBe(200);
    const issued = await fetch(`${server.url}/api/admin/keys`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ email: "agent@example.com" }),
    });
    expect(issued.status).toBe(200);
    key = (await issued.json()).key;
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await server?.stop();
  });

  it("lists all fifteen tools with input and output schemas, and a tool list that does not change", async () => {
    const c = await connect();
    expect(c.getInstructions()).toMatch(/catalog_preflight/);
    expect(c.getServerCapabilities()?.tools).toEqual({ listChanged: false });
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
    for (const t of tools) {
      expect(t.inputSchema.type).toBe("object");
      expect(t.outputSchema?.type, t.name).toBe("object");
    }
  });

  it("answers every tool with good input (keyed) and with bad input as a tool error, each matching the tool's outputSchema", async () => {
    const c = await connect({ key });
    // a client that has listed the tools checks every structured content against its outputSchema (callTool throws)
    await c.listTools();
    const good: Record<string, Record<string, unknown>> = {
      catalog_search: { q: "weather" },
      catalog_lookup: { name: "io.github.acme/weather" },
      catalog_lookalikes: { name: "io.github.acme/weather" },
      catalog_stats: {},
      catalog_recent: {},
      catalog_coverage: {},
      catalog_changes: {},
      catalog_watch_subscribe: { server_name: "io.github.acme/weather", email: "ops@example.com" },
      catalog_watch_list: {},
      catalog_preflight: { server_name: "io.github.acme/weather" },
      catalog_stamp: { server_name: "io.github.acme/weather", policy_id: "builtin:strict" },
      catalog_audit_config: { config: JSON.stringify({ mcpServers: { w: { command: "npx", args: ["-y", "@acme/mcp-weather"] } } }) },
      catalog_credits: {},
      catalog_policy_list: {},
    };
    let watchId = "";
    for (const [name, args] of Object.entries(good)) {
      const r = await call(c, name, args);
      expect(r.isError, `${name}: ${JSON.stringify(r.structuredContent)}`).toBeFalsy();
      expect(r.content[0].text.length).toBeGreaterThan(0);
      if (name === "catalog_watch_subscribe") watchId = r.structuredContent.watch.id;
    }
    const unsub = await call(c, "catalog_watch_unsubscribe", { id: watchId });
    expect(unsub.structuredContent.watch.status).toBe("unsubscribed");

    const bad: [string, Record<string, unknown>, string][] = [
      ["catalog_search", { q: "x" }, "invalid_request"],
      ["catalog_lookup", { name: "io.github.acme/nope" }, "not_found"],
      ["catalog_preflight", { server_name: "io.github.acme/weather", policy_id: "builtin:nope" }, "invalid_request"],
      ["catalog_watch_unsubscribe", { id: "wat_0000000000000000" }, "not_found"],
      ["catalog_changes", { since: "not-a-cursor" }, "invalid_request"],
      ["catalog_audit_config", { config: "{ not json" }, "invalid_request"],
    ];
    for (const [name, args, error] of bad) {
      const r = await call(c, name, args);
      expect(r.isError, name).toBe(true);
      expect(r.structuredContent, name).toMatchObject({ ok: false, error });
    }
  });

  it("answers /v1 paths with the Error body for a wrong method and an unknown route", async () => {
    const wrong = await fetch(`${server.url}/v1/preflight`);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toContain("POST");
    expect(await wrong.json()).toMatchObject({ ok: false, error: "method_not_allowed" });
    const unknown = await fetch(`${server.url}/v1/nope`, { method: "POST" });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ ok: false, error: "not_found" });
  });

  it("answers key-required tools without a key as unauthorized tool errors", async () => {
    const c = await connect();
    for (const name of ["catalog_watch_subscribe", "catalog_watch_list", "catalog_watch_unsubscribe", "catalog_credits"]) {
      const r = await call(c, name, name === "catalog_watch_unsubscribe" ? { id: "wat_0000000000000000" } : name === "catalog_watch_subscribe" ? { server_name: "io.github.acme/weather", email: "a@example.com" } : {});
      expect(r.structuredContent, name).toMatchObject({ ok: false, error: "unauthorized" });
    }
    const anon = await call(c, "catalog_preflight", { server_name: "io.github.acme/weather" });
    expect(anon.isError).toBeFalsy();
    expect(anon.structuredContent.audit_id).toBeNull();
  });
});
