import { and, eq, inArray, lt, like, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { leases } from "@/lib/db/schema";
import { jsonParam, query, ts } from "./db-helpers";

/** Lease keys of harvest items: harvest:<source>:<item>. */
export const leaseKey = (source: string, item: string) => `harvest:${source}:${item}`;

/**
 * Claims the items whose lease is free or expired, in one statement, so two
 * runs racing for an item cannot both get it. Returns the keys this holder now
 * holds. Leases are given back once a chunk is written; a run that read an
 * item as due before another run harvested it notices at claim time (its
 * attempted_at moved) and drops it.
 */
export async function claimItems(db: Db, keys: string[], holder: string, ttlMs: number, now: Date): Promise<Set<string>> {
  if (!keys.length) return new Set();
  const rows = await query<{ key: string }>(
    db,
    sql`insert into leases (key, holder, acquired_at, expires_at)
        select k, ${holder}, ${ts(now)}, ${ts(new Date(now.getTime() + ttlMs))} from jsonb_array_elements_text(${jsonParam(keys)}) as k
        on conflict (key) do update set holder = excluded.holder, acquired_at = excluded.acquired_at, expires_at = excluded.expires_at
        where leases.expires_at <= excluded.acquired_at
        returning key`,
  );
  return new Set(rows.map((r) => r.key));
}

export async function releaseItems(db: Db, keys: string[], holder: string): Promise<void> {
  for (let i = 0; i < keys.length; i += 1000) {
    const part = keys.slice(i, i + 1000);
    if (part.length) await db.delete(leases).where(and(eq(leases.holder, holder), inArray(leases.key, part)));
  }
}

/** Expired harvest leases are dead weight; dropped at the start of each run. */
export async function purgeExpiredLeases(db: Db, now: Date): Promise<void> {
  await db.delete(leases).where(and(like(leases.key, "harvest:%"), lt(leases.expiresAt, now)));
}
