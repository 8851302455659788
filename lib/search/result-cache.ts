import { SEARCH_CACHE_CARDS, searchCacheSeconds, SEARCH_CACHE_ENTRIES } from "@/lib/config";
import { createDbMemo } from "@/lib/cache/db-memo";
import { markSharedJson } from "@/lib/api/json-bytes";

// Search results of popular queries, kept for a short while per process (SEARCH_CACHE_SECONDS, default
// 30; 0 turns it off). Charging is not cached: every request still pays (or repeats) its query.
// Evidence changes on the harvester's schedule (hours), so a card up to half a minute old is as good
// as a fresh one.
// Once expired, a result is still answered for as long again while one recomputation replaces it. Bounded by
// its cards too: a result of 50 cards holds about 400 KB (its objects and its encoded bytes).
const memo = createDbMemo(() => searchCacheSeconds() * 1000, SEARCH_CACHE_ENTRIES, {
  staleMs: () => searchCacheSeconds() * 1000,
  jitter: 0.25,
  maxWeight: SEARCH_CACHE_CARDS,
  weigh: cardsOf,
});

/** What a kept result counts against SEARCH_CACHE_CARDS: its cards, and at least 1 (an empty result is kept too). */
function cardsOf(result: unknown): number {
  const cards = (result as { results?: unknown }).results;
  return Math.max(1, Array.isArray(cards) ? cards.length : 0);
}

/** The memoized result of `compute`; shared by every request that hits it, so its JSON is encoded once. */
export function cachedSearch<T extends object>(db: object, key: string, compute: () => Promise<T>, nowMs = Date.now()): Promise<T> {
  return memo.get(db, key, async () => markSharedJson(await compute()), nowMs);
}

export function clearSearchCache(db: object): void {
  memo.clear(db);
}
