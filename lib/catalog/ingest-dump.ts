import type { Db } from "@/lib/db/client";
import type { RegistryEntry } from "./normalize-registry-entry";
import { ingestListing, normalizeListing, type IngestResult } from "./ingest-entries";
import { believableTime, parseUpstreamTime } from "@/lib/sources/upstream-time";

/**
 * A dump is a complete listing taken at some moment it does not record. The
 * newest updatedAt inside it is the latest instant we know it reflects, so that
 * is its observation time unless the caller knows better; re-reading the same
 * dump therefore observes the same instant and changes nothing. Read from the
 * entries the ingest writes (normalizeListing: a time past the dump's reading is
 * already held as unknown), so a dump is normalized once, not once for its time
 * and again for the ingest (a sixth of a dump's import).
 */
export function dumpObservedAt(entries: readonly RegistryEntry[]): Date {
  let newest = 0;
  for (const e of entries) {
    for (const t of [e.updatedAt, e.publishedAt, e.statusChangedAt]) {
      if (t && t.getTime() > newest) newest = t.getTime();
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

/**
 * An observation time given for a dump as text, read as every upstream time is (parseUpstreamTime: RFC 3339, UTC
 * without an offset), or what is wrong with it. `new Date` took "1" as 2001-01-01, "2025-02-30" as March 2 and Go's
 * zero time as year 1, and a fresh catalog's every server was then first seen that day.
 */
export function readObservedAt(text: string, now = new Date()): { observedAt: Date } | { problem: string } {
  const observedAt = parseUpstreamTime(text);
  if (!observedAt) return { problem: "is not a time (RFC 3339, such as 2025-11-28T00:00:00Z)" };
  const problem = observedAtProblem(observedAt, now);
  return problem ? { problem } : { observedAt };
}

export async function ingestDump(db: Db, entries: unknown[], origin: string, observedAt?: Date): Promise<IngestResult> {
  // its registry times are judged against the import: one given an earlier observation time (--observed-at) lost
  // every publication and update time more than a day after it
  const now = new Date();
  const listing = normalizeListing(entries, now);
  return ingestListing(db, listing, { source: "file", origin, complete: true, observedAt: observedAt ?? dumpObservedAt(listing.entries), readAt: now });
}
