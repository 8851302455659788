import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { watches } from "@/lib/db/schema";
import type { WatchView } from "@/lib/schemas/watch";
import { toWatchView } from "@/lib/watches/watch-view";

/** The watch a confirmation link names; null for an unknown token. */
export async function findWatchByConfirmToken(db: Db, token: string): Promise<WatchView | null> {
  if (!token || token.length > 200) return null;
  const [watch] = await db.select().from(watches).where(eq(watches.emailConfirmToken, token));
  return watch ? toWatchView(watch) : null;
}

/**
 * The confirmation link's action: no sign-in, the token alone lets its address receive its one watch's notices,
 * from the next change on (earlier ones were never queued for it). Confirming twice changes nothing; a watch
 * already stopped is not started again.
 */
export async function confirmWatchEmail(db: Db, token: string, now = new Date()): Promise<WatchView | null> {
  if (!token || token.length > 200) return null;
  await db
    .update(watches)
    .set({ emailConfirmedAt: now, updatedAt: now })
    .where(and(eq(watches.emailConfirmToken, token), isNull(watches.emailConfirmedAt), eq(watches.status, "active")));
  return findWatchByConfirmToken(db, token);
}
