import pg from "pg";
import { sql, type SQL } from "drizzle-orm";
import type { Queryable } from "@/lib/db/client";

/**
 * Runs one of the quota path's fixed statements and returns its rows. On
 * node-postgres it uses a named prepared statement, which skips parsing and
 * planning on every call after the first on each pooled connection (about a
 * third of the quota path's cost; see bench/quota.ts). PGlite and Neon get
 * the same text unnamed; an open drizzle transaction (no driver client of its
 * own) runs it through drizzle in a savepoint, so a refusal does not abort the
 * caller's transaction. A caller inside a transaction must pass the transaction
 * as `db` (on PGlite anything else waits for the transaction: a deadlock).
 * DATABASE_PREPARED_STATEMENTS=0 turns naming off for poolers that cannot keep
 * prepared statements (PgBouncer in transaction mode).
 * The statements cast every value they return to text, integers, booleans or
 * float8, so no driver-specific date parsing applies.
 */
export async function runStatement<T>(db: Queryable, name: string, text: string, values: unknown[]): Promise<T[]> {
  const client = (db as unknown as { $client?: unknown }).$client;
  if (client instanceof pg.Pool && process.env.DATABASE_PREPARED_STATEMENTS !== "0") {
    return (await client.query({ name: `quota_${name}`, text, values })).rows as T[];
  }
  const queryable = client as { query?: (text: string, values: unknown[]) => Promise<{ rows: T[] }> } | undefined;
  if (queryable && typeof queryable.query === "function") return (await queryable.query(text, values)).rows;
  // a savepoint, so a refused charge (the statement aborts itself) leaves the caller's transaction usable
  return db.transaction(async (savepoint) => {
    const result = await savepoint.execute(toDrizzleSql(text, values));
    return ((result as { rows?: T[] }).rows ?? (result as unknown as T[])) as T[];
  });
}

/**
 * A CTE and a select-list column for a statement whose commit need not wait for the disk: set_config(…, true)
 * turns synchronous_commit off until the end of the statement's own transaction, which is its commit (the
 * connection and the server keep their setting). The column must be selected: a CTE nobody reads is not run.
 * For writes whose loss in a Postgres crash costs nobody anything (docs/quota.md), and never inside a
 * transaction, where it would cover everything the transaction wrote.
 */
export const ASYNC_COMMIT_CTE = `async_commit as (select set_config('synchronous_commit', 'off', true) as mode)`;
export const ASYNC_COMMIT_COLUMN = `(select mode from async_commit) as commit_mode`;

/** `… $1 … $2 …` with values → drizzle SQL with the same parameters. */
function toDrizzleSql(text: string, values: unknown[]): SQL {
  const parts = text.split(/\$(\d+)/);
  const chunks: SQL[] = [];
  parts.forEach((part, i) => chunks.push(i % 2 === 0 ? sql.raw(part) : sql`${values[Number(part) - 1]}`));
  return sql.join(chunks);
}
