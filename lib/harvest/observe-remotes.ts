import { inArray } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { serverRemotes } from "@/lib/db/schema";
import { probeRemote } from "@/lib/sources/liveness";
import type { HarvestContext } from "./harvest-context";
import { livenessSource } from "./harvest-liveness";
import { recordChanges } from "./record-changes";

/**
 * Probes the given stored remote URLs now and writes what was seen exactly as a
 * harvest run does: observations (a probe that could not be made moves only
 * attempted_at) and the remote_down / remote_up / tools_changed / health records,
 * in one transaction. Used by preflight's refresh=if_stale, which probes only the
 * server's canonical stored URLs, never a URL from a request.
 */
export async function observeRemotes(db: Db, urls: string[], now: () => Date = () => new Date()): Promise<void> {
  if (!urls.length) return;
  const listed = await db.selectDistinct({ url: serverRemotes.url, type: serverRemotes.type }).from(serverRemotes).where(inArray(serverRemotes.url, urls));
  const items = [...new Map(listed.map((r) => [r.url, { url: r.url, type: r.type, attemptedAt: null }])).values()];
  if (!items.length) return;
  const results = await Promise.all(items.map((it) => probeRemote(it.url, it.type)));
  const at = now();
  await db.transaction(async (tx) => {
    // the liveness writer reads nothing from the run context; a refresh is not a run
    const changes = await livenessSource.write(undefined as unknown as HarvestContext, tx, items, results, at);
    await recordChanges(tx, changes);
  });
}
