import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { POST as watchPost } from "@/app/v1/watch/route";
import { POST as preflightPost } from "@/app/v1/preflight/route";
import { creditCharges, evaluations, watches } from "@/lib/db/schema";
import type { Db } from "@/lib/db/client";
import { resetDb } from "../helpers/db";
import { keyedAccount, loadFixtureCatalog, request, walletRemaining } from "../helpers/catalog-fixture";

// The request path while Postgres misbehaves: connections ended by the server (a restart, a failover, an
// administrator), and a database that refuses new connections for a moment. Real faults on this worker's own
// database, so Postgres only.
const HOLDER = "fault-test-lock-holder";
const databaseName = () => new URL(process.env.DATABASE_URL!).pathname.slice(1);

/** A client of the maintenance database, from which this worker's database is ended and closed. */
async function maintenance(): Promise<pg.Client> {
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = "/postgres";
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  return client;
}

/** Ends every connection of this worker's database but the test's lock holder; returns how many. */
async function endConnections(admin: pg.Client): Promise<number> {
  const { rows } = await admin.query<{ n: number }>(
    "select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = $1 and application_name <> $2",
    [databaseName(), HOLDER],
  );
  return rows[0].n;
}

async function lockHolder(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL, application_name: HOLDER });
  await client.connect();
  return client;
}

/** Waits until a statement of the server's pool waits for a lock (the request is in flight, at its charge). */
async function untilWaitingForLock(admin: pg.Client): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const { rows } = await admin.query("select 1 from pg_stat_activity where datname = $1 and wait_event_type = 'Lock' and application_name <> $2", [
      databaseName(),
      HOLDER,
    ]);
    if (rows.length) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("no statement came to wait for the lock");
}

describe.skipIf(process.env.TEST_DB !== "postgres")("the request path on a failing Postgres", () => {
  let db: Db;
  let admin: pg.Client;
  const uncaught: string[] = [];
  const onUncaught = (err: unknown) => uncaught.push(err instanceof Error ? err.message : String(err));

  beforeEach(async () => {
    db = await resetDb();
    await loadFixtureCatalog(db);
    admin = await maintenance();
    uncaught.length = 0;
    process.on("uncaughtException", onUncaught);
  });
  afterEach(async () => {
    process.off("uncaughtException", onUncaught);
    await admin.query(`alter database "${databaseName()}" allow_connections true`);
    await admin.end();
  });

  it("drops a pooled connection the server ended while idle, without an uncaught exception, and opens another", async () => {
    await Promise.all(Array.from({ length: 3 }, () => db.execute(sql`select pg_sleep(0.05)`)));
    expect(await endConnections(admin)).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 300));
    expect(uncaught).toEqual([]);
    const result = (await db.execute(sql`select 1 as one`)) as unknown as { rows: unknown[] };
    expect(result.rows).toEqual([{ one: 1 }]);
  });

  it("leaves no watch nobody paid for when the database goes away during the creation's charge", async () => {
    const a = await keyedAccount(db, { credits: 100 });
    const holder = await lockHolder();
    try {
      // the wallet's row held: the creation's charge waits for it, its watch already inserted
      await holder.query("begin");
      await holder.query("select 1 from credit_wallets where account_id = $1 for update", [a.accountId]);
      const answer = watchPost(request("/v1/watch", { body: { server_name: "io.github.acme/weather", email: "ops@example.test" }, key: a.key }));
      await untilWaitingForLock(admin);
      // the database restarts: every connection ends, and for a moment no new one is accepted
      await admin.query(`alter database "${databaseName()}" allow_connections false`);
      await endConnections(admin);
      const res = await answer;
      expect(res.status).toBe(500);
      expect(await res.json()).toMatchObject({ ok: false, error: "internal_error" });
      await admin.query(`alter database "${databaseName()}" allow_connections true`);
    } finally {
      await holder.query("rollback").catch(() => undefined);
      await holder.end();
    }
    expect(await db.select().from(watches).where(eq(watches.accountId, a.accountId))).toEqual([]);
    expect(await walletRemaining(db, a.accountId)).toBe(100);
    // asked again, the watch is created, paid for once, and its secret shown
    const again = await watchPost(request("/v1/watch", { body: { server_name: "io.github.acme/weather", email: "ops@example.test" }, key: a.key }));
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ created: true, secret: expect.stringMatching(/^whsec_/) });
    expect(await walletRemaining(db, a.accountId)).toBe(90);
    // the transaction's own connection, ended while checked out of the pool, is no uncaught exception either
    expect(uncaught).toEqual([]);
  });

  it("answers a keyed preflight cut off in flight 503 audit_unavailable, recording and spending nothing, and serves the next on new connections", async () => {
    const a = await keyedAccount(db, { credits: 100 });
    const preflight = () => preflightPost(request("/v1/preflight", { body: { server_name: "io.github.acme/weather" }, key: a.key }));
    expect((await preflight()).status).toBe(200); // the key is known from here: the next call admits and pays in one statement
    const before = (await db.select().from(evaluations)).length;
    const holder = await lockHolder();
    let res: Response;
    try {
      await holder.query("begin");
      await holder.query("lock table evaluations in exclusive mode");
      const answer = preflightPost(request("/v1/preflight", { body: { server_name: "io.github.bob/no-repo" }, key: a.key }));
      await untilWaitingForLock(admin);
      await endConnections(admin);
      res = await answer;
    } finally {
      await holder.query("rollback").catch(() => undefined);
      await holder.end();
    }
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ ok: false, error: "audit_unavailable" });
    // the headers of the admission made after the failure, when that one found a live connection: never a spend
    expect([null, "95"]).toContain(res.headers.get("x-credits-remaining"));
    expect((await db.select().from(evaluations)).length).toBe(before);
    expect(await db.select().from(creditCharges).where(eq(creditCharges.subject, "preflight:builtin:baseline:io.github.bob/no-repo"))).toEqual([]);
    expect(await walletRemaining(db, a.accountId)).toBe(95);
    // the prepared statements are made again on the new connections
    const next = await preflightPost(request("/v1/preflight", { body: { server_name: "io.github.bob/no-repo" }, key: a.key }));
    expect(next.status).toBe(200);
    expect(await walletRemaining(db, a.accountId)).toBe(90);
    expect(uncaught).toEqual([]);
  });
});
