import { describe, expect, it, beforeEach, vi } from "vitest";
import { sql } from "drizzle-orm";
import { GET as searchGet } from "@/app/v1/search/route";
import { POST as auditPost } from "@/app/v1/audit/route";
import { POST as mcpPost } from "@/app/mcp/route";
import type { Db } from "@/lib/db/client";
import { resetDb } from "../helpers/db";
import { keyedAccount, loadFixtureCatalog, request, walletRemaining } from "../helpers/catalog-fixture";
import { connectMcp, mcpClients } from "../helpers/mcp-client";

// A call that fails after it was charged (the database failing while its answer is computed: here the catalog's
// table is gone for the moment) brings no answer, so it must cost nothing: no credits, none of the anonymous
// allowances, and its retry pays as a first call.
let db: Db;
beforeEach(async () => {
  db = await resetDb();
  await loadFixtureCatalog(db);
});

async function whileCatalogUnreadable(run: () => Promise<void>): Promise<void> {
  await db.execute(sql`alter table servers rename to servers_away`);
  const spy = vi.spyOn(console, "error").mockImplementation(() => {});
  try {
    await run();
  } finally {
    spy.mockRestore();
    await db.execute(sql`alter table servers_away rename to servers`);
  }
}

const CONFIG = (pkg: string) => JSON.stringify({ mcpServers: { one: { command: "npx", args: ["-y", pkg] } } });

describe("a metered call that fails after its charge", () => {
  it("gives a key's credits back (REST search, both admission paths) and its retry pays as a first call", async () => {
    const acc = await keyedAccount(db, { credits: 10 });
    // the first call admits the key fully; the process then knows it and admits it in the paying statement
    for (const q of ["weather", "remote"]) {
      await whileCatalogUnreadable(async () => {
        const res = await searchGet(request(`/v1/search?q=${q}`, { key: acc.key }));
        expect(res.status).toBe(500);
        expect(res.headers.get("x-credits-remaining")).toBe("10");
      });
      expect(await walletRemaining(db, acc.accountId)).toBe(10);
    }
    const retry = await searchGet(request("/v1/search?q=weather", { key: acc.key }));
    expect(retry.status).toBe(200);
    expect(retry.headers.get("x-credits-remaining")).toBe("9");
    expect(await walletRemaining(db, acc.accountId)).toBe(9);
  });

  it("gives an anonymous address its lookup back", async () => {
    await whileCatalogUnreadable(async () => {
      const res = await searchGet(request("/v1/search?q=weather"));
      expect(res.status).toBe(500);
      expect(res.headers.get("x-ratelimit-remaining")).toBe("10");
    });
    const next = await searchGet(request("/v1/search?q=remote"));
    expect(next.status).toBe(200);
    expect(next.headers.get("x-ratelimit-remaining")).toBe("9");
  });

  it("gives the config audit's charge back, keyed and keyless (one config a day: the next one still works)", async () => {
    const acc = await keyedAccount(db, { credits: 3 });
    await whileCatalogUnreadable(async () => {
      const keyed = await auditPost(request("/v1/audit", { key: acc.key, body: CONFIG("@acme/mcp-weather") }));
      expect(keyed.status).toBe(500);
      expect(keyed.headers.get("x-credits-remaining")).toBe("3");
      const keyless = await auditPost(request("/v1/audit", { body: CONFIG("@acme/mcp-weather") }));
      expect(keyless.status).toBe(500);
      expect(keyless.headers.get("x-ratelimit-remaining")).toBe("1");
    });
    expect(await walletRemaining(db, acc.accountId)).toBe(3);
    expect((await auditPost(request("/v1/audit", { body: CONFIG("bob-mcp") }))).status).toBe(200);
  });

  describe("on MCP", () => {
    const { keep } = mcpClients();
    it("gives the tool's charge back", async () => {
      const acc = await keyedAccount(db, { credits: 10 });
      const client = keep(await connectMcp(mcpPost, { key: acc.key }));
      await whileCatalogUnreadable(async () => {
        const r = (await client.callTool({ name: "catalog_search", arguments: { q: "weather" } })) as { isError?: boolean };
        expect(r.isError).toBe(true);
      });
      expect(await walletRemaining(db, acc.accountId)).toBe(10);
    });
  });
});
