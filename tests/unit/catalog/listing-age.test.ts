import { describe, expect, it } from "vitest";
import { heldIsNewer, listingAge, mayDelist, versionIsNewer } from "@/lib/catalog/listing-age";
import type { RegistryEntry } from "@/lib/catalog/normalize-registry-entry";
import type { ServerRow } from "@/lib/db/schema";

const at = (iso: string) => new Date(`2026-05-01T${iso}Z`);
const row = (r: Partial<ServerRow>) => ({ delistedAt: null, registryUpdatedAt: null, firstSeenAt: at("00:00:00"), ...r }) as ServerRow;
const entry = (updatedAt: Date | null) => ({ updatedAt }) as RegistryEntry;

describe("listing age", () => {
  const current = listingAge(at("01:00:00"), at("00:30:00"), at("00:30:00"));
  const overtaken = listingAge(at("01:00:00"), at("02:00:00"), at("01:30:00"));

  it("knows when a newer listing, or a newer complete one, was written first", () => {
    expect(current).toEqual({ observedAt: at("01:00:00"), behind: false, goneBy: null });
    expect(overtaken).toEqual({ observedAt: at("01:00:00"), behind: true, goneBy: at("01:30:00") });
    expect(listingAge(at("01:00:00"), null, null)).toEqual({ observedAt: at("01:00:00"), behind: false, goneBy: null });
  });

  it("holds the newer registry update, and on a tie the one a newer listing wrote", () => {
    const held = row({ registryUpdatedAt: at("00:10:00") });
    expect(heldIsNewer(held, entry(at("00:05:00")), current)).toBe(true);
    expect(heldIsNewer(held, entry(at("00:20:00")), overtaken)).toBe(false);
    expect(heldIsNewer(held, entry(at("00:10:00")), current)).toBe(false);
    expect(heldIsNewer(held, entry(at("00:10:00")), overtaken)).toBe(true);
    expect(heldIsNewer(held, entry(null), current)).toBe(false);
    expect(versionIsNewer(at("00:10:00"), entry(at("00:10:00")), current)).toBe(true);
    expect(versionIsNewer(at("00:10:00"), entry(at("00:10:00")), overtaken)).toBe(false);
    expect(versionIsNewer(null, entry(at("00:01:00")), overtaken)).toBe(true);
  });

  it("does not relist what a later listing delisted, nor delist what is newer than the listing", () => {
    expect(heldIsNewer(row({ delistedAt: at("01:30:00") }), null, current)).toBe(true);
    expect(heldIsNewer(row({ delistedAt: at("00:30:00") }), null, current)).toBe(false);
    expect(mayDelist(row({}), current)).toBe(true);
    expect(mayDelist(row({ firstSeenAt: at("01:10:00") }), current)).toBe(false);
    expect(mayDelist(row({ registryUpdatedAt: at("01:10:00") }), current)).toBe(false);
    // a complete listing observed later has already said which servers are listed: an older one delists none
    expect(mayDelist(row({}), overtaken)).toBe(false);
    expect(mayDelist(row({}), listingAge(at("01:00:00"), at("02:00:00"), at("00:30:00")))).toBe(true);
  });
});
