import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { count, sql } from "drizzle-orm";
import { neonConfig } from "@neondatabase/serverless";
import { openDatabase, type DbHandle } from "@/lib/db/client";
import { migrateDatabase } from "@/lib/db/migrate";
import { servers } from "@/lib/db/schema";
import { startWsTcpProxy } from "../helpers/ws-tcp-proxy";

// The Neon driver (`DATABASE_DRIVER=neon`, or a …neon.tech host) speaks Postgres over a WebSocket. Here it reaches
// the test's Postgres server through a local WebSocket-to-TCP proxy like Neon's, on whatever Node runs the tests:
// Node 20 (package.json's engines accept it; `npm run db:migrate` of the Vercel steps runs on the operator's
// machine) has no global WebSocket, and every connection failed ("All attempts to open a WebSocket … failed").
describe.skipIf(process.env.TEST_DB !== "postgres")("the Neon driver (@neondatabase/serverless)", () => {
  let proxy: Awaited<ReturnType<typeof startWsTcpProxy>>;
  let handle: DbHandle;
  const saved = { driver: process.env.DATABASE_DRIVER };

  beforeAll(async () => {
    proxy = await startWsTcpProxy();
    // the proxy in place of Neon's: plain ws:// on loopback, and the startup sent the ordinary way (Neon's
    // pipelined password message needs a password; the test server trusts local connections)
    neonConfig.wsProxy = (host, port) => `127.0.0.1:${proxy.port}/v2?address=${host}:${port}`;
    neonConfig.useSecureWebSocket = false;
    neonConfig.pipelineConnect = false;
    process.env.DATABASE_DRIVER = "neon";
    handle = await openDatabase(process.env.DATABASE_URL);
  });
  afterAll(async () => {
    await handle?.close();
    await proxy?.close();
    if (saved.driver === undefined) delete process.env.DATABASE_DRIVER;
    else process.env.DATABASE_DRIVER = saved.driver;
  });

  it("migrates, queries and runs a transaction", async () => {
    expect(handle.kind).toBe("neon");
    await migrateDatabase(handle);
    const [{ n }] = await handle.db.select({ n: count() }).from(servers);
    expect(n).toBeGreaterThanOrEqual(0);
    const inTx = await handle.db.transaction(async (tx) => ((await tx.execute(sql`select 41 + 1 as answer`)) as unknown as { rows: unknown[] }).rows[0]);
    expect(inTx).toEqual({ answer: 42 });
  });
});
