import { describe, expect, it } from "vitest";
import { buildHealthCard } from "@/lib/cards/build-health-card";
import { evidenceTimeRows } from "@/lib/cards/evidence-time-rows";
import { BARE_LISTING } from "./bare-listing";
import { buildFacts, jspkg, NOW, otherArtifact, pypkg, remote } from "../engine/facts-builder";

const listing = BARE_LISTING;
const rows = (facts: ReturnType<typeof buildFacts>) => Object.fromEntries(evidenceTimeRows(buildHealthCard(facts, listing, NOW)).map((r) => [r.label, r.text]));

// The server page's "when each source was last observed": a source with nothing to observe is not one the
// service failed to observe, so it must not read "not observed".
describe("evidence time rows of the server page", () => {
  it("says a source has nothing listed rather than 'not observed' when the listing names nothing of that kind", () => {
    const r = rows(buildFacts({ repository: null, packages: [otherArtifact()], remotes: [] }));
    expect(r).toMatchObject({
      Repository: "none listed",
      Packages: "none listed",
      "Vulnerability look-ups": "none listed",
      "Liveness of remotes": "none listed",
    });
  });

  it("says 'not observed' only for listed evidence that was not observed, and gives the time otherwise", () => {
    const facts = buildFacts({ remotes: [remote({ live: null, observed_at: null, attempted_at: null })], packages: [jspkg()] });
    const r = rows(facts);
    expect(r["Liveness of remotes"]).toBe("not observed");
    expect(r.Repository).toBe(facts.repository!.observed_at);
    expect(r.Packages).toBe(facts.packages[0].observed_at);
  });

  // A package its registry answered is missing has no version to look up (the harvester does not ask the
  // vulnerability database about it; health and no_known_advisories leave it out): the look-ups of the others
  // were made, and the card says when, not that none was observed.
  it("dates the vulnerability look-ups of the packages that exist, beside one that is missing", () => {
    const missing = jspkg({ identifier: "gone-js", exists: false, deprecated: null, advisories: null, advisories_observed_at: null });
    const facts = buildFacts({ packages: [missing, pypkg({ deprecated: false })] });
    const card = buildHealthCard(facts, listing, NOW);
    expect(card.evidence_times.vuln).toBe(facts.packages[1].advisories_observed_at);
    expect(rows(facts)["Vulnerability look-ups"]).toBe(facts.packages[1].advisories_observed_at);
    // every package missing: nothing was looked up
    expect(buildHealthCard(buildFacts({ packages: [missing] }), listing, NOW).evidence_times.vuln).toBeNull();
  });
});
