import type { Db } from "@/lib/db/client";
import { normalizeRegistryEntry } from "./normalize-registry-entry";
import { ingestEntries, type IngestResult } from "./ingest-entries";
import { believableTime } from "@/lib/sources/upstream-time";

/**
 * A dump is a complete listing taken at some moment it does not record. The
 * newest updatedAt inside it is the latest instant we know it reflects, so that
 * is its observation time unless the caller knows better; re-reading the same
 * dump therefore observes the same instant and changes nothing.
 */
export function dumpObservedAt(entries: unknown[], now = new Date()): Date {
  let newest = 0;
  for (const raw of entries) {
    try {
      const e = normalizeRegistryEntry(raw);
      // a time past the moment we read the dump is not one it can reflect (upstream-time.ts believableTime)
      for (const t of [e.updatedAt, e.publishedAt, e.statusChangedAt]) {
        const d = believableTime(t, now);
        if (d && d.getTime() > newest) newest = d.getTime();
      }
    } catch {
      /* rejected entries are counted by ingestEntries */
    }
  }
  return newest ? new Date(newest) : new Date();
}

export async function ingestDump(db: Db, entries: unknown[], origin: string, observedAt?: Date): Promise<IngestResult> {
  return ingestEntries(db, entries, { source: "file", origin, complete: true, observedAt: observedAt ?? dumpObservedAt(entries) });
}
