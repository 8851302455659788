import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { watches } from "@/lib/db/schema";
import type { WatchView } from "@/lib/schemas/watch";
import { toWatchView } from "@/lib/watches/watch-view";
import { unsubscribeWatch } from "./delete-watch";

/** Looks up the watch an e-mail's unsubscribe link names; null for an unknown token. */
export async function findWatchByUnsubscribeToken(db: Db, token: string): Promise<WatchView | null> {
  if (!token || token.length > 200) return null;
  const [watch] = await db.select().from(watches).where(eq(watches.unsubscribeToken, token));
  return watch ? toWatchView(watch) : null;
}

/** The e-mail link's action: no sign-in, the token alone unsubscribes its one watch. */
export async function unsubscribeWatchByToken(db: Db, token: string): Promise<WatchView | null> {
  if (!token || token.length > 200) return null;
  const [watch] = await db.select().from(watches).where(eq(watches.unsubscribeToken, token));
  return watch ? toWatchView(await unsubscribeWatch(db, watch)) : null;
}
