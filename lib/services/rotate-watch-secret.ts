import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { watches } from "@/lib/db/schema";
import { ApiError } from "@/lib/api/errors";
import type { WatchView } from "@/lib/schemas/watch";
import { newWatchSecret } from "@/lib/watches/watch-ids";
import { toWatchView } from "@/lib/watches/watch-view";
import { findOwnWatch } from "./delete-watch";
import type { WatchCaller } from "./create-watch";

/**
 * The explicit rotation of DESIGN §3: a new `whsec_…` for an active watch,
 * returned in this response only. Bodies are signed when sent, so every
 * delivery from now on (queued ones included) carries the new signature.
 */
export async function rotateWatchSecret(db: Db, caller: WatchCaller, id: string): Promise<{ ok: true; watch: WatchView; secret: string }> {
  const watch = await findOwnWatch(db, caller, id);
  if (watch.status !== "active") throw new ApiError("not_found", `watch ${id} is unsubscribed`);
  const secret = newWatchSecret();
  // still active: a DELETE that committed since the look-up leaves no row, and no secret for a watch that sends nothing
  const [row] = await db
    .update(watches)
    .set({ secret, updatedAt: new Date() })
    .where(and(eq(watches.id, id), eq(watches.status, "active")))
    .returning();
  if (!row) throw new ApiError("not_found", `watch ${id} is unsubscribed`);
  return { ok: true, watch: toWatchView(row), secret };
}
