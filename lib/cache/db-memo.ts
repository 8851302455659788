// Short-lived per-process memos of read results (search results, facts), keyed by database handle so a
// test that empties a database can drop them (clearDbMemos). A memo never replaces a write path: it only
// lets a burst of identical reads share one database round trip for a few seconds.
//
// Writers of evidence in this process (ingest, a harvest chunk, a liveness refresh) call
// noteCatalogWrite(db): every memo entry computed before it is stale from then on. The write
// generation lives on globalThis because Next bundles the server's jobs (instrumentation) and its
// routes separately; a module-level counter would not be seen across them. Writes by other processes
// reach a memo within its time to live.

import { runDetached } from "./detached-context";

interface Entry {
  at: number;
  /** This entry's time to live (the memo's, spread by `jitter`). */
  ttl: number;
  generation: number;
  value: Promise<unknown>;
  /** The value resolved (a pending or failed one is never served stale). */
  settled?: boolean;
  /** A background recomputation of this stale entry is running. */
  refreshing?: boolean;
  /** What the settled value counts against the memo's maxWeight, once counted (0 before). */
  weight: number;
}

/** One database's entries, least recently used first, and the weight of those settled. */
interface Cache {
  entries: Map<string, Entry>;
  /** With options.apart: the entries still being computed and those whose values are kept apart. */
  apart: Map<string, Entry>;
  weight: number;
}

const GENERATIONS = Symbol.for("mcp-preflight.db-write-generations");
function generations(): WeakMap<object, number> {
  const g = globalThis as unknown as Record<symbol, WeakMap<object, number>>;
  return (g[GENERATIONS] ??= new WeakMap());
}
const generationOf = (db: object) => generations().get(db) ?? 0;

/** After this process wrote catalog or evidence rows of `db`: memoized reads of it are recomputed. */
export function noteCatalogWrite(db: object): void {
  generations().set(db, generationOf(db) + 1);
}

/**
 * Works out a key's value. `background` is true for the recomputation of a stale entry, which nobody waits
 * for (its callers are answered the stale value), so it may take its time: the record memo gathers such
 * reloads into one batch (lib/facts/record-cache.ts).
 */
export type MemoCompute<T> = (background: boolean) => Promise<T>;

export interface DbMemo {
  get<T>(db: object, key: string, compute: MemoCompute<T>, nowMs?: number): Promise<T>;
  clear(db: object): void;
}

const all: DbMemo[] = [];

export interface DbMemoOptions {
  /**
   * For this long after its time to live an entry is still answered while one background computation
   * replaces it (stale-while-revalidate), so a popular key's expiry never makes its callers wait. A
   * catalog write (noteCatalogWrite) retires entries at once all the same.
   */
  staleMs?: () => number;
  /**
   * At most this many background recomputations at once (default 2). Entries that expired together (a
   * burst of first requests) are then refreshed a few at a time, the rest answered stale until a slot is
   * free, instead of all at once competing with the requests for the database pool.
   */
  maxRefreshes?: number;
  /**
   * Each entry lives its time to live times a random factor in [1 − jitter, 1] (default 0), so entries
   * computed in the same moment (a burst, a warm-up) do not all expire in the same moment either.
   */
  jitter?: number;
  /**
   * Besides maxEntries, at most this much weight (`weigh` of each settled value) per database, the least
   * recently used dropped first. For values whose sizes vary widely (a search result of one card or of fifty):
   * the number of entries alone would let them take fifty times the memory their limit was chosen for.
   */
  maxWeight?: number;
  weigh?: (value: unknown) => number;
  /**
   * For entries whose key names the data they were computed from (the search candidates, keyed by the listing's
   * version): a catalog write (noteCatalogWrite) does not retire them, since a new version makes new keys. A
   * harvest writes evidence chunk after chunk, and would otherwise throw them away each time for nothing.
   */
  keyedByVersion?: boolean;
  /**
   * Settled values `test` is true of (the record memo's "no such server") are kept apart from the others, at
   * most `maxEntries` of them, with the entries still being computed: a caller asking for many made-up keys
   * then pushes out only other such keys, never the values kept for real ones, while a burst asking for one
   * still shares its computation.
   */
  apart?: { test: (value: unknown) => boolean; maxEntries: number };
}

/** A memo whose entries live `ttlMs()` milliseconds (0 turns it off), at most `maxEntries` per database. */
export function createDbMemo(ttlMs: () => number, maxEntries: number, options: DbMemoOptions = {}): DbMemo {
  const caches = new WeakMap<object, Cache>();
  const maxRefreshes = options.maxRefreshes ?? 2;
  const maxWeight = options.maxWeight ?? Infinity;
  const lifetime = (ttl: number) => (options.jitter ? ttl * (1 - options.jitter * Math.random()) : ttl);
  let refreshes = 0;
  const find = (cache: Cache, key: string) => cache.entries.get(key) ?? cache.apart.get(key);
  const drop = (cache: Cache, key: string) => {
    cache.weight -= cache.entries.get(key)?.weight ?? 0;
    cache.entries.delete(key);
    cache.apart.delete(key);
  };
  // a map's first key is its least recently used
  const dropLeastRecent = (cache: Cache, from: Map<string, Entry>) => drop(cache, from.keys().next().value!);
  const trim = (cache: Cache) => {
    while (cache.entries.size > maxEntries) dropLeastRecent(cache, cache.entries);
    while (cache.apart.size > (options.apart?.maxEntries ?? 0)) dropLeastRecent(cache, cache.apart);
  };
  const store = (cache: Cache, key: string, entry: Entry) => {
    drop(cache, key);
    (options.apart ? cache.apart : cache.entries).set(key, entry);
    entry.value.then(
      (value) => {
        entry.settled = true;
        if (find(cache, key) !== entry) return;
        if (options.apart) {
          if (options.apart.test(value)) return;
          cache.apart.delete(key);
          cache.entries.set(key, entry);
          trim(cache);
        }
        if (!options.weigh) return;
        entry.weight = options.weigh(value);
        cache.weight += entry.weight;
        while (cache.weight > maxWeight && cache.entries.size) dropLeastRecent(cache, cache.entries);
      },
      () => find(cache, key) === entry && drop(cache, key),
    );
    trim(cache);
  };
  const memo: DbMemo = {
    async get<T>(db: object, key: string, compute: MemoCompute<T>, nowMs = Date.now()): Promise<T> {
      const ttl = ttlMs();
      if (ttl <= 0) return compute(false);
      let cache = caches.get(db);
      if (!cache) caches.set(db, (cache = { entries: new Map(), apart: new Map(), weight: 0 }));
      const hit = find(cache, key);
      const generation = generationOf(db);
      if (hit && (options.keyedByVersion || hit.generation === generation)) {
        const age = nowMs - hit.at;
        const fresh = age < hit.ttl;
        if (fresh || (hit.settled && age < hit.ttl + (options.staleMs?.() ?? 0))) {
          const from = cache.entries.has(key) ? cache.entries : cache.apart;
          from.delete(key);
          from.set(key, hit);
          if (!fresh && !hit.refreshing && refreshes < maxRefreshes) {
            hit.refreshing = true;
            refreshes++;
            const next: Entry = { at: nowMs, ttl: lifetime(ttl), generation, value: runDetached(() => compute(true)), weight: 0 };
            next.value.then(
              () => {
                refreshes--;
                if (find(cache, key) === hit) store(cache, key, next);
              },
              () => {
                refreshes--;
                hit.refreshing = false;
              },
            );
          }
          return hit.value as Promise<T>;
        }
      }
      const value = runDetached(() => compute(false));
      store(cache, key, { at: nowMs, ttl: lifetime(ttl), generation, value, weight: 0 });
      return value;
    },
    clear(db: object) {
      caches.delete(db);
    },
  };
  all.push(memo);
  return memo;
}

/** Drops every memo's entries for one database (tests that reset it). */
export function clearDbMemos(db: object): void {
  for (const m of all) m.clear(db);
}
