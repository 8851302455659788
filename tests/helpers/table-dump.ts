import { sql, type SQL } from "drizzle-orm";
import type { Db } from "@/lib/db/client";

const CATALOG_TABLES = ["servers", "server_versions", "server_packages", "server_remotes", "repositories"] as const;

function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? (result as T[])) as T[];
}

/** Every row of every catalog table as text, for "nothing changed" assertions. */
export async function dumpCatalog(db: Db): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const t of CATALOG_TABLES) {
    const res = await db.execute(sql.raw(`select row_to_json(x)::text as j from "${t}" x order by 1`));
    out[t] = rowsOf<{ j: string }>(res).map((r) => r.j);
  }
  return out;
}

export async function count(db: Db, query: string): Promise<number> {
  const res = await db.execute(sql.raw(query));
  return Number(rowsOf<{ n: string | number }>(res)[0].n);
}

/** The rows of one query, whichever driver (PGlite, node-postgres) answered it. */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  return rowsOf<T>(await db.execute(query));
}
