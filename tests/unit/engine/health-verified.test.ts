import { describe, expect, it } from "vitest";
import { computeHealth, computeVerified } from "@/lib/engine";
import { buildFacts, jspkg, NOW, otherArtifact, pypkg, remote } from "./facts-builder";

describe("computeHealth", () => {
  it("is healthy when nothing is wrong and the repository and every jspkg/pypkg package (with its advisories) were observed", () => {
    expect(computeHealth(buildFacts({ packages: [jspkg(), pypkg()] }), NOW)).toEqual({ health: "healthy", problems: [] });
  });

  it.each([
    ["a gone repository", { repository: { exists: false } }, ["repo_gone"]],
    ["an archived repository", { repository: { archived: true } }, ["repo_archived"]],
    ["a missing jspkg package", { packages: [jspkg({ exists: false, deprecated: null, advisories: null })] }, ["jspkg_package_missing"]],
    ["a missing pypkg package", { packages: [pypkg({ exists: false, advisories: null })] }, ["pypkg_package_missing"]],
    ["a deprecated jspkg version", { packages: [jspkg({ deprecated: true })] }, ["jspkg_deprecated"]],
    ["an advisory", { packages: [jspkg({ advisories: [{ id: "GHSA-1", summary: null, severity: "HIGH" }] })] }, ["vuln_package_advisory"]],
    ["a remote observed down", { remotes: [remote({ live: false, http_status: 502 })] }, ["remote_down"]],
  ] as const)("has issues with %s", (_label, over, problems) => {
    expect(computeHealth(buildFacts(over as never), NOW)).toEqual({ health: "issues", problems });
  });

  it("lists several problems sorted, each once", () => {
    const facts = buildFacts({
      repository: { archived: true },
      packages: [jspkg({ deprecated: true }), jspkg({ identifier: "b", deprecated: true })],
      remotes: [remote({ live: false }), remote({ url: "https://b.example/mcp", live: false })],
    });
    expect(computeHealth(facts, NOW).problems).toEqual(["jspkg_deprecated", "remote_down", "repo_archived"]);
  });

  it.each([
    ["no repository listed", { repository: null }],
    ["a repository not yet observed", { repository: { exists: null, archived: null, observed_at: null, attempted_at: null } }],
    ["a package not yet observed", { packages: [jspkg({ exists: null, deprecated: null, advisories: null, observed_at: null })] }],
    ["a package whose advisories were not looked up", { packages: [jspkg({ advisories: null, advisories_observed_at: null })] }],
  ] as const)("is unknown, not healthy, with %s and nothing wrong seen", (_label, over) => {
    expect(computeHealth(buildFacts(over as never), NOW)).toEqual({ health: "unknown", problems: [] });
  });

  it("does not need remotes probed or oci artifacts looked up to be healthy", () => {
    const facts = buildFacts({ packages: [otherArtifact()], remotes: [remote({ live: null, observed_at: null, http_status: null })] });
    expect(computeHealth(facts, NOW)).toEqual({ health: "healthy", problems: [] });
  });

  it("reports an observed problem even when other evidence is unknown", () => {
    const facts = buildFacts({ repository: null, remotes: [remote({ live: false })] });
    expect(computeHealth(facts, NOW)).toEqual({ health: "issues", problems: ["remote_down"] });
  });
});

describe("computeVerified (live repository not archived, live packages, active listing)", () => {
  it("is true when all three hold", () => {
    expect(computeVerified(buildFacts({ packages: [jspkg(), pypkg()] }), NOW)).toBe(true);
  });

  it("holds for a server whose only artifacts are remotes or unchecked ecosystems", () => {
    expect(computeVerified(buildFacts({ packages: [otherArtifact()] }), NOW)).toBe(true);
    expect(computeVerified(buildFacts({ packages: [] }), NOW)).toBe(true);
  });

  it.each([
    ["no repository", { repository: null }],
    ["a repository not observed", { repository: { exists: null } }],
    ["a gone repository", { repository: { exists: false } }],
    ["an archived repository", { repository: { archived: true } }],
    ["a repository whose archive state is unknown", { repository: { archived: null } }],
    ["a missing package", { packages: [jspkg(), pypkg({ exists: false })] }],
    ["a package not observed", { packages: [jspkg({ exists: null })] }],
    ["a deprecated listing", { server: { registry_status: "deprecated" } }],
    ["a delisted server", { server: { registry_status: "delisted" } }],
    ["a listing without a status", { server: { registry_status: null } }],
  ] as const)("is false with %s", (_label, over) => {
    expect(computeVerified(buildFacts(over as never), NOW)).toBe(false);
  });

  it("ignores deprecation, advisories and remote liveness (they are health, not verified)", () => {
    const facts = buildFacts({
      packages: [jspkg({ deprecated: true, advisories: [{ id: "GHSA-1", summary: null, severity: null }] })],
      remotes: [remote({ live: false })],
    });
    expect(computeVerified(facts, NOW)).toBe(true);
  });
});
