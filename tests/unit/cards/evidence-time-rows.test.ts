import { describe, expect, it } from "vitest";
import { buildHealthCard } from "@/lib/cards/build-health-card";
import { evidenceTimeRows } from "@/lib/cards/evidence-time-rows";
import type { ListingDetails } from "@/lib/facts/load-facts";
import { buildFacts, jspkg, NOW, otherArtifact, remote } from "../engine/facts-builder";

const listing: ListingDetails = {
  id: 1,
  title: null,
  description: null,
  website_url: null,
  status_message: null,
  published_at: null,
  registry_updated_at: null,
  delisted_at: null,
  name_fold: "weathermcp",
};
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
});
