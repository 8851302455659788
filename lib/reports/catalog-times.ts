import { desc, eq } from "drizzle-orm";
import type { Queryable } from "@/lib/db/client";
import { registrySyncs } from "@/lib/db/schema";

/** When the listing was last read: the observed_at of the newest successful registry sync. */
export async function latestListingObservedAt(db: Queryable): Promise<Date | null> {
  const [row] = await db
    .select({ observedAt: registrySyncs.observedAt })
    .from(registrySyncs)
    .where(eq(registrySyncs.status, "succeeded"))
    .orderBy(desc(registrySyncs.id))
    .limit(1);
  return row?.observedAt ?? null;
}
