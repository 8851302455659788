import { isMainThread } from "node:worker_threads";
import pg from "pg";
import { vi } from "vitest";
import { sql } from "drizzle-orm";
import { sqlRows } from "@/lib/reports/sql-rows";
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

/**
 * Empties every table of the current test database and returns it, migrated, with no memo of its old rows, and
 * with every identity sequence of its tables restarted: as `truncate … restart identity cascade` of every table
 * would. Only the tables that hold rows are emptied, by DELETE, referencing tables first: a TRUNCATE makes new
 * files for each of the ~100 tables, indexes and sequences and took 0.3–0.9 s on the Postgres server, most of a
 * small test's time (query-parameters-http: 17 of its 25 s); deleting the few rows a test wrote takes
 * milliseconds. The schema has no delete trigger, so a DELETE does nothing a TRUNCATE would not; foreign keys
 * that form a cycle (none now) fall back to the TRUNCATE.
 */
export async function resetDb(): Promise<Db> {
  const db = await getDb();
  clearDbMemos(db);
  const tables = (await sqlRows<{ tablename: string }>(db, sql`select tablename from pg_tables where schemaname = 'public'`)).map((r) => r.tablename);
  if (!tables.length) return db;
  const quote = (t: string) => `"${t.replaceAll('"', '""')}"`;
  const [holding, references, sequences] = await Promise.all([
    sqlRows<{ t: string }>(db, sql.raw(tables.map((t) => `select '${t.replaceAll("'", "''")}' as t where exists (select 1 from ${quote(t)})`).join(" union all "))),
    sqlRows<{ child: string; parent: string }>(
      db,
      sql`select c.relname as child, p.relname as parent from pg_constraint k
            join pg_class c on c.oid = k.conrelid join pg_namespace cn on cn.oid = c.relnamespace
            join pg_class p on p.oid = k.confrelid join pg_namespace pn on pn.oid = p.relnamespace
          where k.contype = 'f' and cn.nspname = 'public' and pn.nspname = 'public' and c.oid <> p.oid`,
    ),
    // the sequences restart identity restarts (those owned by a column of a public table), once used
    sqlRows<{ seq: string }>(
      db,
      sql`select format('%I.%I', s.schemaname, s.sequencename) as seq from pg_sequences s
            join pg_namespace sn on sn.nspname = s.schemaname join pg_class sc on sc.relname = s.sequencename and sc.relnamespace = sn.oid
            join pg_depend d on d.classid = 'pg_class'::regclass and d.objid = sc.oid and d.refclassid = 'pg_class'::regclass and d.deptype in ('a', 'i')
            join pg_class t on t.oid = d.refobjid join pg_namespace tn on tn.oid = t.relnamespace
          where tn.nspname = 'public' and s.last_value is not null`,
    ),
  ]);
  const order = childrenFirst(new Set(holding.map((r) => r.t)), references);
  const statements = order
    ? [...order.map((t) => `delete from ${quote(t)}`), ...sequences.map((s) => `alter sequence ${s.seq} restart`)]
    : [`truncate ${tables.map(quote).join(", ")} restart identity cascade`];
  if (statements.length) await db.transaction(async (tx) => {
    for (const s of statements) await tx.execute(sql.raw(s));
  });
  return db;
}

/**
 * The tables in `holding` in an order that deletes every referencing row before the row it references: each
 * table after all the tables that reference it (and hold rows). Null when references form a cycle.
 */
function childrenFirst(holding: Set<string>, references: { child: string; parent: string }[]): string[] | null {
  const out: string[] = [];
  const state = new Map<string, "visiting" | "done">();
  const visit = (t: string): boolean => {
    if (state.get(t) === "done") return true;
    if (state.get(t) === "visiting") return false;
    state.set(t, "visiting");
    for (const r of references) if (r.parent === t && holding.has(r.child) && !visit(r.child)) return false;
    state.set(t, "done");
    out.push(t);
    return true;
  };
  for (const t of [...holding].sort()) if (!visit(t)) return null;
  return out;
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
