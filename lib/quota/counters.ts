import { sql } from "drizzle-orm";
import type { Queryable } from "@/lib/db/client";
import { quotaCounters } from "@/lib/db/schema";

/**
 * Adds one to a fixed-window counter and returns the new count, in one statement
 * that is exact under concurrency (the row lock serialises the increments).
 */
export async function incrementCounter(db: Queryable, bucket: string, windowStart: Date): Promise<number> {
  const [row] = await db
    .insert(quotaCounters)
    .values({ bucket, windowStart, count: 1 })
    .onConflictDoUpdate({
      target: [quotaCounters.bucket, quotaCounters.windowStart],
      set: { count: sql`${quotaCounters.count} + 1` },
    })
    .returning({ count: quotaCounters.count });
  return row.count;
}

/**
 * Adds one only while the count is below `limit`; returns the new count, or null
 * when the window is full (nothing is written then).
 */
export async function incrementCounterBelow(
  db: Queryable,
  bucket: string,
  windowStart: Date,
  limit: number,
): Promise<number | null> {
  if (limit <= 0) return null;
  const rows = await db
    .insert(quotaCounters)
    .values({ bucket, windowStart, count: 1 })
    .onConflictDoUpdate({
      target: [quotaCounters.bucket, quotaCounters.windowStart],
      set: { count: sql`${quotaCounters.count} + 1` },
      setWhere: sql`${quotaCounters.count} < ${limit}`,
    })
    .returning({ count: quotaCounters.count });
  return rows.length ? rows[0].count : null;
}

export async function readCounter(db: Queryable, bucket: string, windowStart: Date): Promise<number> {
  const rows = await db
    .select({ count: quotaCounters.count })
    .from(quotaCounters)
    .where(sql`${quotaCounters.bucket} = ${bucket} and ${quotaCounters.windowStart} = ${windowStart}`);
  return rows.length ? rows[0].count : 0;
}
