import { REPORT_MEMO_MS } from "@/lib/config";
import { createDbMemo } from "@/lib/cache/db-memo";

// Reports read the whole catalog; each process computes one at most once per REPORT_MEMO_MS and serves
// the same body (and so the same ETag) in between. Keyed by report name and the database handle, so
// tests that open a fresh database never see another's numbers.
const memo = createDbMemo(() => REPORT_MEMO_MS, 16);

export function memoized<T>(db: object, key: string, compute: () => Promise<T>, nowMs = Date.now()): Promise<T> {
  return memo.get(db, key, compute, nowMs);
}

/** Forgets every memoized report of a database (tests, and after an ingest if a caller wants fresh numbers). */
export function clearReportMemo(db: object): void {
  memo.clear(db);
}
