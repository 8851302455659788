import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { watches } from "@/lib/db/schema";
import type { WatchView } from "@/lib/schemas/watch";
import { toWatchView } from "@/lib/watches/watch-view";
import { requireAccount, type WatchCaller } from "./create-watch";

/** GET /v1/watch: the account's active watches, oldest first, without secrets. */
export async function listWatches(db: Db, caller: WatchCaller): Promise<{ ok: true; count: number; watches: WatchView[] }> {
  const accountId = requireAccount(caller);
  const rows = await db
    .select()
    .from(watches)
    .where(and(eq(watches.accountId, accountId), eq(watches.status, "active")))
    .orderBy(asc(watches.createdAt), asc(watches.id));
  return { ok: true, count: rows.length, watches: rows.map(toWatchView) };
}
