import type { Queryable } from "@/lib/db/client";
import { FACTS_CACHE_ABSENT_ENTRIES, FACTS_CACHE_ENTRIES, factsCacheSeconds } from "@/lib/config";
import { createDbMemo } from "@/lib/cache/db-memo";
import { deepFreeze } from "@/lib/cache/deep-freeze";
import type { Facts } from "@/lib/engine";
import { loadServerRecords, type ServerRecord } from "./load-facts";

/** A stale record's reload waits this long for the other stale records of its database to join its batch. */
const RELOAD_GATHER_MS = 1000;
/** At most this many names per reload batch. */
const RELOAD_BATCH_MAX = 500;

// Once expired, a record is still answered for as long again while a reload replaces it. Records expire one
// by one (their lifetimes are jittered), and loading one alone costs nearly what loading a batch of a hundred
// costs (about six set queries: 6 ms of Node CPU for one name against 0.6 ms a name in batches of 20), so
// reloads, which nobody waits for, are gathered for a second and run as one batch. Names not in the catalog
// are kept apart, so anyone may ask about made-up names (preflight, badges) without pushing out real records.
const memo = createDbMemo(() => factsCacheSeconds() * 1000, FACTS_CACHE_ENTRIES, {
  staleMs: () => factsCacheSeconds() * 1000,
  maxRefreshes: RELOAD_BATCH_MAX,
  jitter: 0.25,
  apart: { test: (record) => record === null, maxEntries: FACTS_CACHE_ABSENT_ENTRIES },
});

interface Gathering {
  names: string[];
  loaded: Promise<Map<string, ServerRecord>>;
}
const gatherings = new WeakMap<object, Gathering>();

/** The records of `name` and of the other stale names of `db` gathered with it, loaded together. */
function reloadGathered(db: Queryable, name: string): Promise<Map<string, ServerRecord>> {
  let gathering = gatherings.get(db);
  if (!gathering || gathering.names.length >= RELOAD_BATCH_MAX) {
    const names: string[] = [];
    const wait = new Promise<void>((resolve) => setTimeout(resolve, RELOAD_GATHER_MS).unref());
    const loaded = wait.then(() => {
      if (gatherings.get(db)?.names === names) gatherings.delete(db);
      return loadServerRecords(db, names);
    });
    gatherings.set(db, (gathering = { names, loaded }));
  }
  gathering.names.push(name);
  return gathering.loaded;
}

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
    memo.get(db, name, async (background) => {
      let loaded: Promise<Map<string, ServerRecord>>;
      if (background) loaded = reloadGathered(db, name);
      else {
        missing.push(name);
        await null;
        loaded = batch!;
      }
      const record = (await loaded).get(name);
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
