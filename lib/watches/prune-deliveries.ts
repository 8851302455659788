import { and, lt, ne } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { watchDeliveries } from "@/lib/db/schema";
import { DELIVERY_RETENTION_DAYS } from "@/lib/config";

/**
 * Daily upkeep: deletes deliveries that finished more than 30 days ago (their
 * attempts go with them). Pending deliveries are never pruned.
 */
export async function pruneDeliveries(db: Db, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - DELIVERY_RETENTION_DAYS * 86_400_000);
  const gone = await db
    .delete(watchDeliveries)
    .where(and(ne(watchDeliveries.status, "pending"), lt(watchDeliveries.finishedAt, cutoff)))
    .returning({ id: watchDeliveries.id });
  return gone.length;
}
