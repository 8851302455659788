import { and, eq, lte, sql } from "drizzle-orm";
import type { Queryable } from "@/lib/db/client";
import { leases } from "@/lib/db/schema";

/**
 * Takes the lease `key` for `holder` until now + ttl, if nobody holds an
 * unexpired one. One statement, so two processes racing for it cannot both win.
 */
export async function acquireLease(db: Queryable, key: string, holder: string, ttlMs: number, now = new Date()): Promise<boolean> {
  const expiresAt = new Date(now.getTime() + ttlMs);
  const rows = await db
    .insert(leases)
    .values({ key, holder, acquiredAt: now, expiresAt })
    .onConflictDoUpdate({
      target: leases.key,
      set: { holder, acquiredAt: now, expiresAt },
      setWhere: lte(leases.expiresAt, sql`${now.toISOString()}::timestamptz`),
    })
    .returning({ key: leases.key });
  return rows.length === 1;
}

/** Gives the lease back early; only its holder can. */
export async function releaseLease(db: Queryable, key: string, holder: string): Promise<void> {
  await db.delete(leases).where(and(eq(leases.key, key), eq(leases.holder, holder)));
}
