import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { sourceCooldowns } from "@/lib/db/schema";
import { storableText } from "@/lib/db/storable-text";

/** When a source may be called again (null: now). */
export async function cooldownUntil(db: Db, source: string, now: Date): Promise<{ until: Date; reason: string } | null> {
  const [row] = await db.select().from(sourceCooldowns).where(eq(sourceCooldowns.source, source));
  return row && row.until > now ? { until: row.until, reason: row.reason } : null;
}

export async function setCooldown(db: Db, source: string, until: Date, reason: string, now: Date): Promise<void> {
  // the reason may quote an upstream's message (GitHub's secondary limits)
  const why = storableText(reason.slice(0, 500));
  await db
    .insert(sourceCooldowns)
    .values({ source, until, reason: why, updatedAt: now })
    .onConflictDoUpdate({ target: sourceCooldowns.source, set: { until, reason: why, updatedAt: now } });
}
