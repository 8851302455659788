import type { Queryable } from "@/lib/db/client";
import { FACTS_CACHE_ENTRIES, factsCacheSeconds } from "@/lib/config";
import { createDbMemo } from "@/lib/cache/db-memo";
import type { Facts } from "@/lib/engine";
import { loadFacts } from "./load-facts";

const memo = createDbMemo(() => factsCacheSeconds() * 1000, FACTS_CACHE_ENTRIES);

/**
 * loadFacts shared by the preflights of one server within a few seconds (FACTS_CACHE_SECONDS): a burst of
 * agents asking about the same server costs one set of queries. Whoever writes evidence in this process
 * (ingest, harvest, a liveness refresh) calls noteCatalogWrite (lib/cache/db-memo.ts), which retires them.
 */
export function loadFactsCached(db: Queryable, name: string): Promise<Facts | null> {
  return memo.get(db, name, () => loadFacts(db, name));
}
