import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { watches, type WatchRow } from "@/lib/db/schema";
import { ApiError } from "@/lib/api/errors";
import type { WatchView } from "@/lib/schemas/watch";
import { cancelPendingDeliveries } from "@/lib/watches/finish-delivery";
import { toWatchView } from "@/lib/watches/watch-view";
import { requireAccount, type WatchCaller } from "./create-watch";

/**
 * Moves a watch to `unsubscribed` (contract: active → unsubscribed) and cancels
 * its undelivered events, in one transaction. Unsubscribing twice is harmless.
 */
export async function unsubscribeWatch(db: Db, watch: WatchRow): Promise<WatchRow> {
  if (watch.status !== "active") return watch;
  return db.transaction(async (tx) => {
    const now = new Date();
    // only while still active: without this, a second DELETE (or e-mail link) that read the watch before the
    // first committed moved its unsubscribed_at on, and each answer named another moment
    const [row] = await tx
      .update(watches)
      .set({ status: "unsubscribed", unsubscribedAt: now, updatedAt: now })
      .where(and(eq(watches.id, watch.id), eq(watches.status, "active")))
      .returning();
    if (!row) {
      // the other unsubscribe committed first and cancelled the events: answer with the watch as it left it
      const [current] = await tx.select().from(watches).where(eq(watches.id, watch.id));
      return current;
    }
    await cancelPendingDeliveries(tx, watch.id, now);
    return row;
  });
}

/** Finds one of the caller's watches (any status); 404 for ids of other accounts, as for unknown ones. */
export async function findOwnWatch(db: Db, caller: WatchCaller, id: string): Promise<WatchRow> {
  const accountId = requireAccount(caller);
  const [watch] = await db
    .select()
    .from(watches)
    .where(and(eq(watches.id, id), eq(watches.accountId, accountId)));
  if (!watch) throw new ApiError("not_found", `no watch ${JSON.stringify(id)} for this account`);
  return watch;
}

/** DELETE /v1/watch?id=: unsubscribes one of the caller's watches. */
export async function deleteWatch(db: Db, caller: WatchCaller, id: string): Promise<{ ok: true; watch: WatchView }> {
  const watch = await findOwnWatch(db, caller, id);
  return { ok: true, watch: toWatchView(await unsubscribeWatch(db, watch)) };
}
