import { and, eq, isNotNull, max, or, sql } from "drizzle-orm";
import type { Queryable } from "@/lib/db/client";
import { registrySyncs } from "@/lib/db/schema";

/**
 * Successful syncs that saw the whole listing: a complete one, or an incremental crawl read without rejects
 * (every row updated since its start is in it, so every other row was unchanged when it was read). A listing
 * written as incomplete (rejected rows, an empty file) speaks only for the rows it holds: its time is not when
 * the servers it lacks were seen.
 */
export const sawWholeListing = and(
  eq(registrySyncs.status, "succeeded"),
  or(eq(registrySyncs.complete, true), and(isNotNull(registrySyncs.updatedSince), sql`coalesce((${registrySyncs.counts}->>'rejected')::int, 0) = 0`)),
);

/**
 * When the listing was last read: the newest observed_at among successful registry syncs that saw all of it,
 * as the facts date it (lib/facts/load-facts.ts). Not the newest sync's: an older dump imported later is the
 * newest import, but the listing it holds was read before the one already stored.
 */
export async function latestListingObservedAt(db: Queryable): Promise<Date | null> {
  const [row] = await db.select({ observedAt: max(registrySyncs.observedAt) }).from(registrySyncs).where(sawWholeListing);
  return row?.observedAt ?? null;
}
