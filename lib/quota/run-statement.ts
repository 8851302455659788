import pg from "pg";
import type { Queryable } from "@/lib/db/client";

/**
 * Runs one of the quota path's fixed statements and returns its rows. On
 * node-postgres it uses a named prepared statement, which skips parsing and
 * planning on every call after the first on each pooled connection (about a
 * third of the quota path's cost; see bench/quota.ts). PGlite and Neon get
 * the same text unnamed. DATABASE_PREPARED_STATEMENTS=0 turns naming off for
 * poolers that cannot keep prepared statements (PgBouncer in transaction mode).
 * Results are plain driver rows: the statements cast every value they return
 * to text, integers or float8, so no driver-specific date parsing applies.
 */
export async function runStatement<T>(db: Queryable, name: string, text: string, values: unknown[]): Promise<T[]> {
  const client = (db as unknown as { $client?: unknown }).$client;
  if (client instanceof pg.Pool && process.env.DATABASE_PREPARED_STATEMENTS !== "0") {
    return (await client.query({ name: `quota_${name}`, text, values })).rows as T[];
  }
  const queryable = client as { query?: (text: string, values: unknown[]) => Promise<{ rows: T[] }> } | undefined;
  if (queryable && typeof queryable.query === "function") return (await queryable.query(text, values)).rows;
  throw new Error("runStatement: this database handle exposes no driver client");
}
