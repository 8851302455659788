import { searchCacheSeconds, SEARCH_CACHE_ENTRIES } from "@/lib/config";

// Search results of popular queries, kept for a short while per process (SEARCH_CACHE_SECONDS, default
// 30; 0 turns it off). Charging is not cached: every request still pays (or repeats) its query.
// Evidence changes on the harvester's schedule (hours), so a card up to half a minute old is as good
// as a fresh one. Keyed by database handle, so tests that reset a database can clear it.

interface Entry<T> {
  at: number;
  value: Promise<T>;
}
const caches = new WeakMap<object, Map<string, Entry<unknown>>>();

export async function cachedSearch<T>(db: object, key: string, compute: () => Promise<T>, nowMs = Date.now()): Promise<T> {
  const ttl = searchCacheSeconds() * 1000;
  if (ttl <= 0) return compute();
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const hit = cache.get(key);
  if (hit && nowMs - hit.at < ttl) {
    // refresh its place in the insertion order: the map's first key is the least recently used
    cache.delete(key);
    cache.set(key, hit);
    return hit.value as Promise<T>;
  }
  const value = compute();
  cache.set(key, { at: nowMs, value });
  value.catch(() => cache!.delete(key));
  while (cache.size > SEARCH_CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
  return value;
}

export function clearSearchCache(db: object): void {
  caches.delete(db);
}
