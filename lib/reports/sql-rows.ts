import type { SQL } from "drizzle-orm";
import type { Queryable } from "@/lib/db/client";

/** Rows of a raw query on any of the three drivers (PGlite and node-postgres wrap them differently). */
export async function sqlRows<T>(db: Queryable, query: SQL): Promise<T[]> {
  const res = (await db.execute(query)) as unknown as { rows?: T[] } | T[];
  return Array.isArray(res) ? res : (res.rows ?? []);
}
