import { sql, type SQL } from "drizzle-orm";
import type { Queryable } from "@/lib/db/client";

/** Rows of db.execute on either driver (PGlite and node-postgres both answer {rows}). */
export async function query<T>(q: Queryable, statement: SQL): Promise<T[]> {
  const res = (await q.execute(statement)) as unknown as { rows?: T[] } | T[];
  return (Array.isArray(res) ? res : (res.rows ?? [])) as T[];
}

/** A timestamptz parameter that reads the same on every driver. */
export const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/** A JSON array parameter, expanded in SQL with jsonb_array_elements / jsonb_to_recordset. */
export const jsonParam = (v: unknown) => sql`${JSON.stringify(v)}::jsonb`;

export const toDate = (v: unknown): Date | null => (v === null || v === undefined ? null : v instanceof Date ? v : new Date(String(v)));
