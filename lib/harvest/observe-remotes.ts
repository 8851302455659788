import { randomUUID } from "node:crypto";
import { inArray } from "drizzle-orm";
import { HARVEST_LEASE_MS } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import { serverRemotes } from "@/lib/db/schema";
import { probeListedRemote } from "@/lib/sources/liveness";
import type { HarvestContext } from "./harvest-context";
import { livenessSource } from "./harvest-liveness";
import { lockChanges, recordChanges } from "./record-changes";
import { claimItems, leaseKey, releaseItems } from "./leases";

/**
 * Probes the given stored remote URLs now and writes what was seen exactly as a
 * harvest run does: observations (a probe that could not be made moves only
 * attempted_at) and the remote_down / remote_up / tools_changed / health records,
 * in one transaction. Used by preflight's refresh=if_stale, which probes only the
 * server's canonical stored URLs, never a URL from a request. A URL a harvest run holds is not probed.
 */
export async function observeRemotes(db: Db, urls: string[], now: () => Date = () => new Date()): Promise<void> {
  if (!urls.length) return;
  const listed = await db.selectDistinct({ url: serverRemotes.url, type: serverRemotes.type }).from(serverRemotes).where(inArray(serverRemotes.url, urls));
  const byUrl = new Map<string, { url: string; types: string[]; attemptedAt: null }>();
  for (const r of listed) {
    const item = byUrl.get(r.url) ?? { url: r.url, types: [], attemptedAt: null };
    item.types.push(r.type);
    byUrl.set(r.url, item);
  }
  const unique = [...byUrl.values()];
  if (!unique.length) return;
  // The harvest's own item leases: a URL a harvest chunk is probing right now is left to it, and while we
  // probe, no harvest chunk can, so neither writes an answer older than the other's over it.
  const holder = `refresh:${randomUUID()}`;
  const keyOf = (url: string) => leaseKey(livenessSource.source, url);
  const claimed = await claimItems(db, unique.map((it) => keyOf(it.url)), holder, HARVEST_LEASE_MS, now());
  const items = unique.filter((it) => claimed.has(keyOf(it.url)));
  try {
    if (!items.length) return;
    const results = await Promise.all(items.map((it) => probeListedRemote(it.url, it.types)));
    const at = now();
    await db.transaction(async (tx) => {
      await lockChanges(tx);
      // the liveness writer reads nothing from the run context; a refresh is not a run
      const changes = await livenessSource.write(undefined as unknown as HarvestContext, tx, items, results, at);
      await recordChanges(tx, changes);
    });
  } finally {
    await releaseItems(db, [...claimed], holder);
  }
}
