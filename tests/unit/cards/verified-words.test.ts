import { describe, expect, it } from "vitest";
import { buildHealthCard } from "@/lib/cards/build-health-card";
import { verifiedWords } from "@/lib/cards/verified-words";
import { BARE_LISTING } from "./bare-listing";
import { healthCardSchema } from "@/lib/schemas/health-card";
import { buildFacts, jspkg, NOW } from "../engine/facts-builder";

const listing = BARE_LISTING;
const card = (facts: ReturnType<typeof buildFacts>) => healthCardSchema.parse(buildHealthCard(facts, listing, NOW));
const neverHarvested = () =>
  buildFacts({
    repository: { exists: null, archived: null, pushed_at: null, stars: null, observed_at: null, attempted_at: null },
    packages: [jspkg({ exists: null, deprecated: null, advisories: null, observed_at: null, attempted_at: null, advisories_observed_at: null })],
  });

// The contract keeps `verified` a boolean; a server never harvested is false there, and the card says beside it
// that this false is "not yet known", and the page, the Open Graph image and the MCP summary say it in words.
describe("verified of a server whose evidence is not observed yet", () => {
  it("keeps the contract's boolean and adds verified_status unknown", () => {
    const c = card(neverHarvested());
    expect(c.verified).toBe(false);
    expect(c.verified_status).toBe("unknown");
    expect(verifiedWords(c)).toBe("not yet known");
  });

  it("says yes and no only for what was observed", () => {
    const yes = card(buildFacts());
    expect([yes.verified, yes.verified_status, verifiedWords(yes)]).toEqual([true, "verified", "yes"]);
    const gone = card(buildFacts({ repository: { exists: false } }));
    expect([gone.verified, gone.verified_status, verifiedWords(gone)]).toEqual([false, "not_verified", "no"]);
  });
});
