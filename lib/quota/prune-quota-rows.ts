import { lt } from "drizzle-orm";
import { QUOTA_ROW_RETENTION_DAYS } from "@/lib/config";
import type { Queryable } from "@/lib/db/client";
import { anonymousLookups, creditCharges, quotaCounters } from "@/lib/db/schema";
import { startOfUtcDay, utcDay } from "./utc";

/** Deletes per-day quota rows older than the retention; they only matter on their own day. */
export async function pruneQuotaRows(db: Queryable, now: Date = new Date()): Promise<void> {
  const cutoff = new Date(startOfUtcDay(now).getTime() - QUOTA_ROW_RETENTION_DAYS * 86_400_000);
  await db.delete(creditCharges).where(lt(creditCharges.utcDay, utcDay(cutoff)));
  await db.delete(anonymousLookups).where(lt(anonymousLookups.utcDay, utcDay(cutoff)));
  await db.delete(quotaCounters).where(lt(quotaCounters.windowStart, cutoff));
}
