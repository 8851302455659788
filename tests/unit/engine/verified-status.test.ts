import { describe, expect, it } from "vitest";
import { computeVerified, verifiedStatus } from "@/lib/engine";
import { buildFacts, jspkg, NOW, otherArtifact } from "./facts-builder";

// `verified` is a boolean in the contract, so false covers two cases a reader must tell apart: evidence observed to
// fail a clause, and evidence not observed yet. verifiedStatus says which; an unknown stays unknown.
describe("verifiedStatus", () => {
  it("is verified exactly when computeVerified is true", () => {
    const facts = buildFacts({ packages: [jspkg(), otherArtifact()] });
    expect(computeVerified(facts, NOW)).toBe(true);
    expect(verifiedStatus(facts, NOW)).toBe("verified");
  });

  it.each([
    ["a repository never observed", { repository: { exists: null, archived: null, observed_at: null, attempted_at: null } }],
    ["a repository whose archive state was not reported", { repository: { archived: null } }],
    ["a package never looked up", { packages: [jspkg({ exists: null, deprecated: null, advisories: null, observed_at: null })] }],
    ["nothing observed but the listing", { repository: { exists: null, archived: null, observed_at: null }, packages: [jspkg({ exists: null, observed_at: null })] }],
  ] as const)("is unknown, not 'not verified', with %s and every observed clause holding", (_label, over) => {
    const facts = buildFacts(over as never);
    expect(computeVerified(facts, NOW)).toBe(false);
    expect(verifiedStatus(facts, NOW)).toBe("unknown");
  });

  it.each([
    ["no repository listed", { repository: null }],
    ["a gone repository", { repository: { exists: false } }],
    ["an archived repository", { repository: { archived: true } }],
    ["a missing package beside one not observed", { packages: [jspkg({ exists: false }), jspkg({ identifier: "b", exists: null })] }],
    ["a deprecated listing while the repository is not observed", { server: { registry_status: "deprecated" }, repository: { exists: null, archived: null } }],
    ["a listing without a status", { server: { registry_status: null } }],
  ] as const)("is not_verified with %s: a clause fails whatever is still unobserved", (_label, over) => {
    expect(verifiedStatus(buildFacts(over as never), NOW)).toBe("not_verified");
  });
});
