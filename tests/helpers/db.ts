import { isMainThread } from "node:worker_threads";
import pg from "pg";
import { vi } from "vitest";
import { sql } from "drizzle-orm";
import { closeDb, getDb, type Db } from "@/lib/db/client";
import { clearDbMemos } from "@/lib/cache/db-memo";

/**
 * Points DATABASE_URL at this worker's database: a fresh in-memory PGlite, or a
 * database of its own on the Postgres server (workers run in parallel, so they
 * must not share one).
 */
export async function configureTestDatabase(): Promise<void> {
  if (process.env.TEST_DB !== "postgres") {
    process.env.DATABASE_URL = "pglite:memory";
    return;
  }
  const admin = new URL(process.env.TEST_DATABASE_URL!);
  // forks and threads (vitest.config.ts) number their workers alike: a thread's database is named apart
  const name = `${admin.pathname.slice(1) || "test"}_w${process.env.VITEST_POOL_ID ?? "0"}${isMainThread ? "" : "t"}`;
  // Administrative statements go to the always-present "postgres" database.
  const maintenance = new URL(admin);
  maintenance.pathname = "/postgres";
  const client = new pg.Client({ connectionString: maintenance.toString() });
  await client.connect();
  try {
    const exists = await client.query("select 1 from pg_database where datname = $1", [name]);
    if (!exists.rowCount) await client.query(`create database "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(admin);
  url.pathname = `/${name}`;
  process.env.DATABASE_URL = url.toString();
}

/** Empties every table of the current test database and returns it, migrated, with no memo of its old rows. */
export async function resetDb(): Promise<Db> {
  const db = await getDb();
  clearDbMemos(db);
  const rows = await db.execute<{ tablename: string }>(sql`select tablename from pg_tables where schemaname = 'public'`);
  const tables = (rows as unknown as { rows?: { tablename: string }[] }).rows ?? (rows as unknown as { tablename: string }[]);
  if (tables.length) {
    await db.execute(sql.raw(`truncate ${tables.map((t) => `"${t.tablename}"`).join(", ")} restart identity cascade`));
  }
  return db;
}

export { closeDb };

/**
 * True on the one database a slow test whose subject does not depend on the database runs on (upstream call
 * counts of a 20,000-server harvest, the shape of MCP answers): Postgres when the suite has it (CI), else
 * PGlite. Running such a test on both only doubles its minutes; everything that reads or writes differently on
 * the two runs on both.
 */
export const onOneDatabase = process.env.TEST_DB === (process.env.TEST_DATABASE_URL ? "postgres" : "pglite");

/**
 * Waits (at most 5 s) until a statement of this database waits for a lock: a call in flight has reached a row or
 * lock the test holds on another connection. Returns early once `settled` says the call ended without waiting.
 * Postgres only (PGlite runs one transaction at a time).
 */
export async function untilWaitingForLock(db: Db, settled: () => boolean = () => false): Promise<void> {
  for (let i = 0; i < 200 && !settled(); i++) {
    const rows = await db.execute<{ n: number }>(sql`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`);
    const [row] = (rows as unknown as { rows?: { n: number }[] }).rows ?? (rows as unknown as { n: number }[]);
    if (row.n > 0) return;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Runs `run` while the database refuses every evaluation insert (a trigger), as a full disk or a read-only replica
 * would: the 503 audit_unavailable path. The service logs each refusal; the log is quieted meanwhile.
 */
export async function whileEvaluationsRefused(db: Db, run: () => Promise<void>): Promise<void> {
  await whileInsertsRefused(db, "evaluations", run);
}

/**
 * Runs `run` while the database refuses inserts into `table` (those whose row passes `when`, a trigger WHEN
 * condition on NEW): a write that fails part-way through a multi-statement operation, as a dropped connection,
 * a full disk or a killed process would leave it. Logged errors are quieted meanwhile.
 */
export async function whileInsertsRefused(db: Db, table: string, run: () => Promise<void>, when = "true"): Promise<void> {
  const name = `refuse_${table}`;
  await db.execute(sql.raw(`create or replace function ${name}() returns trigger language plpgsql as $$ begin raise exception '${table} refuses this write'; end $$`));
  await db.execute(sql.raw(`create trigger ${name} before insert on ${table} for each row when (${when}) execute function ${name}()`));
  const spy = vi.spyOn(console, "error").mockImplementation(() => {});
  try {
    await run();
  } finally {
    spy.mockRestore();
    await db.execute(sql.raw(`drop trigger ${name} on ${table}`));
  }
}
