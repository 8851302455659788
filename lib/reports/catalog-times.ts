import { eq, max } from "drizzle-orm";
import type { Queryable } from "@/lib/db/client";
import { registrySyncs } from "@/lib/db/schema";

/**
 * When the listing was last read: the newest observed_at among successful registry syncs, as the facts
 * date it (lib/facts/load-facts.ts). Not the newest sync's: an older dump imported later is the newest
 * import, but the listing it holds was read before the one already stored.
 */
export async function latestListingObservedAt(db: Queryable): Promise<Date | null> {
  const [row] = await db
    .select({ observedAt: max(registrySyncs.observedAt) })
    .from(registrySyncs)
    .where(eq(registrySyncs.status, "succeeded"));
  return row?.observedAt ?? null;
}
