import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db, Queryable } from "@/lib/db/client";
import { leases } from "@/lib/db/schema";
import { ApiError } from "@/lib/api/errors";
import { acquireLease, releaseLease } from "@/lib/leases/leases";
import { incrementCounterBelow } from "@/lib/quota/counters";
import { startOfUtcDay } from "@/lib/quota/utc";
import { REFRESH_IF_STALE_PER_DAY, REFRESH_SERVER_COOLDOWN_SECONDS } from "@/lib/config";
import type { Facts } from "@/lib/engine";
import { observeRemotes } from "@/lib/harvest/observe-remotes";
import { noteCatalogWrite } from "@/lib/cache/db-memo";

/** A stored liveness observation older than this is stale for refresh=if_stale (the harvest target). */
export const REFRESH_STALE_AFTER_MS = 6 * 3_600_000;
/** Longest a refresh may hold its server; a crashed holder's claim expires after this. */
const REFRESH_LEASE_MS = 60_000;

export interface PendingRefresh {
  /** Probes the stored remote URLs and records what it saw; always releases the in-progress claim. */
  run(): Promise<void>;
}

/**
 * The remotes a probe can tell anything about, as the harvester picks them (lib/harvest/harvest-liveness.ts):
 * streamable-http and SSE endpoints without `{templates}`, which need the user's own values.
 */
const isProbeable = (r: { type: string; url: string }) => (r.type === "streamable-http" || r.type === "sse") && !r.url.includes("{");

export function staleRemoteUrls(facts: Facts, now: Date): string[] {
  return facts.remotes
    .filter(isProbeable)
    .filter((r) => !r.observed_at || now.getTime() - Date.parse(r.observed_at) > REFRESH_STALE_AFTER_MS)
    .map((r) => r.url);
}

async function secondsLeft(db: Queryable, key: string, now: Date): Promise<number> {
  const [row] = await db.select({ expiresAt: leases.expiresAt }).from(leases).where(eq(leases.key, key));
  return row ? Math.max(1, Math.ceil((row.expiresAt.getTime() - now.getTime()) / 1000)) : 1;
}

/**
 * refresh=if_stale (contract rule 2): only the canonical stored remote URLs of
 * the server are probed, only when their observation is stale, under a lease row
 * (409 while another refresh of the server runs), a per-server cooldown and a
 * per-account daily quota (429). Returns null when nothing is stale.
 */
export async function beginRefresh(db: Db, facts: Facts, who: { accountId: string; now: Date }): Promise<PendingRefresh | null> {
  const { now } = who;
  const urls = staleRemoteUrls(facts, now);
  if (!urls.length) return null;
  const server = facts.server.name;
  const holder = randomUUID();
  const inProgress = `refresh:${server}`;
  const cooldown = `refresh-cooldown:${server}`;
  // The claim, the cooldown and the day's count in one transaction: a refusal (409, 429) or a failure part-way (a
  // lost connection) leaves none of them, where writes made one by one left the server "in progress" for a minute
  // and cooling down for ten without any probe, and nothing could refresh it meanwhile. Committed before the probe,
  // so a concurrent refresh of the server sees the claim (its insert waits for this commit) and gets its 409.
  await db.transaction(async (tx) => {
    if (!(await acquireLease(tx, inProgress, holder, REFRESH_LEASE_MS, now))) {
      throw new ApiError("refresh_in_progress", `a liveness refresh of ${server} is already in progress; retry in a few seconds`);
    }
    if (!(await acquireLease(tx, cooldown, who.accountId, REFRESH_SERVER_COOLDOWN_SECONDS * 1000, now))) {
      const retryAfter = await secondsLeft(tx, cooldown, now);
      throw new ApiError("rate_limited", `${server} was refreshed less than ${REFRESH_SERVER_COOLDOWN_SECONDS / 60} minutes ago`, {
        retryAfter,
        resetAt: new Date(now.getTime() + retryAfter * 1000),
      });
    }
    const day = startOfUtcDay(now);
    if ((await incrementCounterBelow(tx, `refresh:${who.accountId}`, day, REFRESH_IF_STALE_PER_DAY)) === null) {
      const resetAt = new Date(day.getTime() + 86_400_000);
      throw new ApiError("rate_limited", `this account used its ${REFRESH_IF_STALE_PER_DAY} liveness refreshes for today (UTC)`, {
        retryAfter: Math.max(1, Math.ceil((resetAt.getTime() - now.getTime()) / 1000)),
        resetAt,
      });
    }
  });
  const release = () => releaseLease(db, inProgress, holder);
  return {
    async run() {
      try {
        await observeRemotes(db, urls);
      } finally {
        noteCatalogWrite(db);
        await release();
      }
    },
  };
}
