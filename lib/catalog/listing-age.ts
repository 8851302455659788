import type { ServerRow } from "@/lib/db/schema";
import type { RegistryEntry } from "./normalize-registry-entry";

/**
 * Listings can reach the catalog out of order: two crawls overlap and the one that began first commits last,
 * or someone imports an older dump after a newer one. A listing never takes the catalog back in time; these
 * rules say, per server, what an older listing may no longer say. They compare the registry's own clock
 * (`updatedAt`) where both sides have it, and observation times of listings otherwise.
 */
export interface ListingAge {
  observedAt: Date;
  /** A listing observed after this one has already been written. */
  behind: boolean;
  /**
   * When the first complete listing written so far and observed after this one was observed: names it lacked were
   * gone by then. Not the newest such listing: a backfilled older dump would date the absence of a name it holds
   * to the last import, where read in order the first listing without it did.
   */
  goneBy: Date | null;
}

/** `nextComplete`: the earliest complete listing written so far that was observed after this one, if any. */
export function listingAge(observedAt: Date, newestWritten: Date | null, nextComplete: Date | null): ListingAge {
  return {
    observedAt,
    behind: Boolean(newestWritten && newestWritten > observedAt),
    goneBy: nextComplete && nextComplete > observedAt ? nextComplete : null,
  };
}

/** `a` is older than `b` by the registry's clock, or as old and read by a listing already overtaken. */
function older(a: Date, b: Date, listing: ListingAge): boolean {
  return a < b || (a.getTime() === b.getTime() && listing.behind);
}

/**
 * The catalog holds newer word of this server than the listing: it was delisted by a listing observed after
 * this one, or its latest entry was updated after the one this listing calls latest. Such a listing neither
 * describes, relists nor moves the latest version of the server.
 */
export function heldIsNewer(row: ServerRow, latest: RegistryEntry | null, listing: ListingAge): boolean {
  if (row.delistedAt && listing.observedAt < row.delistedAt) return true;
  return Boolean(latest?.updatedAt && row.registryUpdatedAt && older(latest.updatedAt, row.registryUpdatedAt, listing));
}

/** A held version is rewritten only by an entry newer than it (by the registry's updatedAt). */
export function versionIsNewer(heldUpdatedAt: Date | null, entry: RegistryEntry, listing: ListingAge): boolean {
  return !(heldUpdatedAt && entry.updatedAt && older(entry.updatedAt, heldUpdatedAt, listing));
}

/**
 * A complete listing lacking a server delists it only if the listing was observed after everything we know
 * of the server: one first seen, or updated in the registry, after the listing was taken may simply be too
 * new to be in it; and only if no complete listing observed after it has been written.
 */
export function mayDelist(row: ServerRow, listing: ListingAge): boolean {
  // A complete listing observed later has been written: it already said which servers are listed, and a
  // server it held may have been gone at this listing's time and back since (delisting it again would take
  // the catalog back and repeat the "unlisted" change).
  if (listing.goneBy) return false;
  if (row.firstSeenAt > listing.observedAt) return false;
  return !(row.registryUpdatedAt && row.registryUpdatedAt > listing.observedAt);
}
