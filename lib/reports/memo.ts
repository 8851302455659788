// Reports read the whole catalog; each process computes one at most once per REPORT_MEMO_MS and serves
// the same body (and so the same ETag) in between. Keyed by report name and the database handle, so
// tests that open a fresh database never see another's numbers.

interface Entry {
  at: number;
  value: Promise<unknown>;
}
const memos = new WeakMap<object, Map<string, Entry>>();

export async function memoized<T>(db: object, key: string, ttlMs: number, compute: () => Promise<T>, nowMs = Date.now()): Promise<T> {
  let perDb = memos.get(db);
  if (!perDb) memos.set(db, (perDb = new Map()));
  const hit = perDb.get(key);
  if (hit && nowMs - hit.at < ttlMs) return hit.value as Promise<T>;
  const value = compute();
  perDb.set(key, { at: nowMs, value });
  value.catch(() => perDb!.delete(key));
  return value;
}

/** Forgets every memoized report of a database (tests, and after an ingest if a caller wants fresh numbers). */
export function clearReportMemo(db: object): void {
  memos.delete(db);
}
