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

/**
 * What is wrong with an observation time given for a dump (`--observed-at`, `observed_at`), or null. A listing is
 * not observed after it is read, the rule every upstream time follows (believableTime): one dated ahead by a typo
 * (2052 for 2025) made every later listing older than it, so none delisted a server or moved a latest version
 * again, and each server new to them arrived delisted as of that date.
 */
export function observedAtProblem(observedAt: Date, now = new Date()): string | null {
  if (Number.isNaN(observedAt.getTime())) return "is not a time";
  return believableTime(observedAt, now) ? null : `is in the future (now is ${now.toISOString()}): a dump cannot have been observed after it is imported`;
}

export async function ingestDump(db: Db, entries: unknown[], origin: string, observedAt?: Date): Promise<IngestResult> {
  // its registry times are judged against the import: one given an earlier observation time (--observed-at) lost
  // every publication and update time more than a day after it
  const now = new Date();
  return ingestEntries(db, entries, { source: "file", origin, complete: true, observedAt: observedAt ?? dumpObservedAt(entries, now), readAt: now });
}
