// Short-lived per-process memos of read results (search results, facts), keyed by database handle so a
// test that empties a database can drop them (clearDbMemos). A memo never replaces a write path: it only
// lets a burst of identical reads share one database round trip for a few seconds.

interface Entry {
  at: number;
  value: Promise<unknown>;
}

export interface DbMemo {
  get<T>(db: object, key: string, compute: () => Promise<T>, nowMs?: number): Promise<T>;
  /** Forgets one key, after a write the memo would otherwise hide. */
  forget(db: object, key: string): void;
  clear(db: object): void;
}

const all: DbMemo[] = [];

/** A memo whose entries live `ttlMs()` milliseconds (0 turns it off), at most `maxEntries` per database. */
export function createDbMemo(ttlMs: () => number, maxEntries: number): DbMemo {
  const caches = new WeakMap<object, Map<string, Entry>>();
  const memo: DbMemo = {
    async get<T>(db: object, key: string, compute: () => Promise<T>, nowMs = Date.now()): Promise<T> {
      const ttl = ttlMs();
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
      while (cache.size > maxEntries) cache.delete(cache.keys().next().value!);
      return value;
    },
    forget(db: object, key: string) {
      caches.get(db)?.delete(key);
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
