import type { Queryable } from "@/lib/db/client";
import { FACTS_CACHE_ENTRIES, factsCacheSeconds } from "@/lib/config";
import { createDbMemo } from "@/lib/cache/db-memo";
import { deepFreeze } from "@/lib/cache/deep-freeze";
import type { Facts } from "@/lib/engine";
import { loadServerRecords, type ServerRecord } from "./load-facts";

// Once expired, a record is still answered for as long again while a reload replaces it; reloads are
// single rows, so more of them may run at once than rankings.
const memo = createDbMemo(() => factsCacheSeconds() * 1000, FACTS_CACHE_ENTRIES, {
  staleMs: () => factsCacheSeconds() * 1000,
  maxRefreshes: 8,
  jitter: 0.25,
});

/**
 * loadServerRecords shared by the requests of a few seconds (FACTS_CACHE_SECONDS): a burst of agents asking
 * about the same server, or searches whose results overlap, cost one set of queries. Names not kept are
 * loaded together in one batch. Whoever writes evidence in this process (ingest, harvest, a liveness
 * refresh) calls noteCatalogWrite (lib/cache/db-memo.ts), which retires every kept record at once.
 */
export async function loadServerRecordsCached(db: Queryable, names: readonly string[]): Promise<Map<string, ServerRecord>> {
  const unique = [...new Set(names)];
  const missing: string[] = [];
  let batch: Promise<Map<string, ServerRecord>> | undefined;
  // memo.get calls its compute at once for a name it does not keep; those names form one batch, which
  // exists before any of the computes awaits it
  const pending = unique.map((name) =>
    memo.get(db, name, async () => {
      missing.push(name);
      await null;
      const record = (await batch!).get(name);
      if (!record) return null;
      // shared by every request until the next write; frozen facts also get their digest worked out once
      deepFreeze(record.facts);
      return record;
    }),
  );
  if (missing.length) batch = loadServerRecords(db, missing);
  const out = new Map<string, ServerRecord>();
  (await Promise.all(pending)).forEach((r, i) => r && out.set(unique[i], r));
  return out;
}

/** The facts of one exact name (preflight, stamp), from the kept records; null when not in the catalog. */
export async function loadFactsCached(db: Queryable, name: string): Promise<Facts | null> {
  return (await loadServerRecordsCached(db, [name])).get(name)?.facts ?? null;
}
