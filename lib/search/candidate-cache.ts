import { desc, eq } from "drizzle-orm";
import type { Queryable } from "@/lib/db/client";
import { registrySyncs } from "@/lib/db/schema";
import { SEARCH_CACHE_ENTRIES, searchCacheSeconds } from "@/lib/config";
import { createDbMemo } from "@/lib/cache/db-memo";
import { deepFreeze } from "@/lib/cache/deep-freeze";
import { findCandidates, type SearchCandidate } from "./find-candidates";

/**
 * How often a process asks which listing the catalog holds. A listing another process writes (the harvest cron)
 * reaches this process's rankings within this long; its own writes retire the answer at once (noteCatalogWrite).
 */
const LISTING_VERSION_MS = 1000;
/**
 * A safety net only: a kept ranking is keyed by the listing it was computed from, so it is never out of date
 * while that listing is the catalog's. A change made without an ingest (an operator's hand edit of `servers`)
 * reaches searches within this long.
 */
const CANDIDATES_MS = 60 * 60 * 1000;

const versions = createDbMemo(() => (searchCacheSeconds() > 0 ? LISTING_VERSION_MS : 0), 1);
const rankings = createDbMemo(() => (searchCacheSeconds() > 0 ? CANDIDATES_MS : 0), SEARCH_CACHE_ENTRIES, { keyedByVersion: true });

/**
 * The listing the catalog holds now: the id of the newest succeeded registry sync. Only ingest writes the
 * listing (servers' names, titles, descriptions, delisting), always in the transaction that records its
 * succeeded sync and under the catalog lock (lib/catalog/ingest-entries.ts), so these ids grow in the order the
 * listings were committed and a new one means the listing may have changed. 0 before the first ingest.
 */
export async function listingVersion(db: Queryable): Promise<number> {
  const [row] = await db
    .select({ id: registrySyncs.id })
    .from(registrySyncs)
    .where(eq(registrySyncs.status, "succeeded"))
    .orderBy(desc(registrySyncs.id))
    .limit(1);
  return row?.id ?? 0;
}

/**
 * findCandidates, kept per process for as long as the listing it ranked is the catalog's. The candidates of
 * a query depend on the listing alone (no clock, no evidence), and they are most of what recomputing a
 * search costs (a full-text and trigram query: about 6 ms of Postgres CPU and 2 ms of Node CPU over 20,000
 * servers, against about 1 ms for the cards), so an expired search result is recomputed from kept candidates
 * with fresh records and a fresh clock. Off, like the result cache, when SEARCH_CACHE_SECONDS is 0. This
 * process's own ingest retires the version it read (noteCatalogWrite), not the rankings: they are keyed by
 * version, and evidence writes (harvest chunks, refreshes) do not change them.
 */
export async function findCandidatesCached(db: Queryable, q: string, wanted: number): Promise<SearchCandidate[]> {
  const version = await versions.get(db, "listing", () => listingVersion(db));
  // frozen: every search of this query shares them
  return rankings.get(db, `${version}\u0000${wanted}\u0000${q}`, async () => deepFreeze(await findCandidates(db, q, wanted)));
}
