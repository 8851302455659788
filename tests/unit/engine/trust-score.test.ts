import { describe, expect, it } from "vitest";
import { computeTrustScore, isPinnedVersion, PILLAR_MAX, TRUST_FACTOR_SPECS, TRUST_PILLARS } from "@/lib/engine";
import { buildFacts, daysAgo, jspkg, NOW, otherArtifact, pypkg, remote } from "./facts-builder";

const factor = (facts: ReturnType<typeof buildFacts>, name: string) => computeTrustScore(facts, NOW).factors.find((f) => f.factor === name)!;

describe("trust score structure", () => {
  it("has four pillars of 25 points whose factors' maxima add up to exactly 25 each", () => {
    for (const pillar of TRUST_PILLARS) {
      expect(TRUST_FACTOR_SPECS.filter((s) => s.pillar === pillar).reduce((n, s) => n + s.max, 0), pillar).toBe(PILLAR_MAX);
    }
    expect(new Set(TRUST_FACTOR_SPECS.map((s) => s.factor)).size).toBe(TRUST_FACTOR_SPECS.length);
  });

  it("makes the score the sum of the factors' points and each pillar the sum of its factors", () => {
    const t = computeTrustScore(buildFacts({ repository: { stars: 250 } }), NOW);
    expect(t.score).toBe(t.factors.reduce((n, f) => n + f.points, 0));
    for (const p of t.pillars) expect(p.points).toBe(t.factors.filter((f) => f.pillar === p.pillar).reduce((n, f) => n + f.points, 0));
    expect(t.pillars.map((p) => p.pillar)).toEqual(["identity", "maintenance", "adoption", "security"]);
  });

  it("gives a fully evidenced, popular, first-party package-and-remote server 100", () => {
    const t = computeTrustScore(
      buildFacts({ repository: { stars: 12_000 }, server: { first_seen_at: daysAgo(200) }, remotes: [remote()] }),
      NOW,
    );
    expect(t.factors.filter((f) => f.points !== f.max)).toEqual([]);
    expect(t.score).toBe(100);
  });

  it("is deterministic", () => {
    const f = buildFacts();
    expect(computeTrustScore(f, NOW)).toEqual(computeTrustScore(structuredClone(f), NOW));
  });
});

describe("unknown evidence earns no points and says so", () => {
  const unseen = buildFacts({
    identity: { first_party: null, basis: null },
    repository: { exists: null, archived: null, pushed_at: null, stars: null, observed_at: null, attempted_at: "2026-02-28T00:00:00.000Z" },
    packages: [jspkg({ exists: null, deprecated: null, advisories: null, observed_at: null, advisories_observed_at: null, attempted_at: null })],
    remotes: [remote({ live: null, http_status: null, observed_at: null, attempted_at: null })],
  });
  const t = computeTrustScore(unseen, NOW);

  it.each(["first_party", "repository_live", "recent_push", "repo_stars", "artifacts_available", "no_known_advisories", "packages_intact"])(
    "%s is unknown with 0 points and evidence starting 'unknown:'",
    (name) => {
      const f = t.factors.find((x) => x.factor === name)!;
      expect(f.status).toBe("unknown");
      expect(f.points).toBe(0);
      expect(f.evidence).toMatch(/^unknown: /);
    },
  );

  it("names the last attempt when there was one", () => {
    expect(factor(unseen, "repository_live").evidence).toContain("last attempt 2026-02-28T00:00:00.000Z");
  });
});

describe("factors", () => {
  it.each([
    ["github_namespace_owns_moved_repository", true, "the GitHub namespace owns the listed repository, moved to it since it was listed"],
    ["github_repository_moved_to_another_owner", false, "the listed repository moved to another owner than the GitHub namespace"],
  ])("first_party explains the basis %s in words, not as its identifier", (basis, firstParty, words) => {
    const f = factor(buildFacts({ identity: { first_party: firstParty, basis } }), "first_party");
    expect(f.evidence).toContain(words);
    expect(f.evidence).not.toContain(basis);
  });

  it("repository_live: 10 live and not archived, 5 archived, 0 gone, 0 none listed", () => {
    expect(factor(buildFacts(), "repository_live")).toMatchObject({ points: 10, status: "met" });
    expect(factor(buildFacts({ repository: { archived: true } }), "repository_live")).toMatchObject({ points: 5, status: "partial" });
    expect(factor(buildFacts({ repository: { exists: false } }), "repository_live")).toMatchObject({ points: 0, status: "unmet" });
    expect(factor(buildFacts({ repository: null }), "repository_live")).toMatchObject({ points: 0, status: "unknown", evidence: "unknown: the listing names no repository, so whether one exists is unknown" });
  });

  it.each([
    [10, 10],
    [89, 10],
    [91, 5],
    [183, 5],
    [184, 0],
  ])("recent_push: a push %i days ago earns %i", (days, points) => {
    expect(factor(buildFacts({ repository: { pushed_at: daysAgo(days) } }), "recent_push").points).toBe(points);
  });

  it.each([
    [0, 0],
    [1, 3],
    [9, 3],
    [10, 6],
    [100, 9],
    [1_000, 12],
    [10_000, 15],
  ])("repo_stars: %i stars earn %i", (stars, points) => {
    const f = factor(buildFacts({ repository: { stars } }), "repo_stars");
    expect(f.points).toBe(points);
    expect(f.evidence).toContain(`${stars} star`);
  });

  it("brand_claims: none or verified earn 5; an unverified claim or impersonation 0", () => {
    expect(factor(buildFacts(), "brand_claims").points).toBe(5);
    expect(factor(buildFacts({ identity: { brand_claims: [{ brand: "Stripe", verified_by_namespace: true, impersonation: false }] } }), "brand_claims").points).toBe(5);
    expect(factor(buildFacts({ identity: { brand_claims: [{ brand: "Stripe", verified_by_namespace: false, impersonation: false }] } }), "brand_claims")).toMatchObject({
      points: 0,
      status: "unmet",
    });
    expect(factor(buildFacts({ identity: { brand_claims: [{ brand: "Stripe", verified_by_namespace: false, impersonation: true }] } }), "brand_claims").evidence).toContain(
      "official server of Stripe",
    );
  });

  it("distinct_name: 0 with lookalikes, naming them", () => {
    const f = factor(buildFacts({ lookalikes: { count: 2, names: ["com.evil/weather-mcp", "io.github.x/weather_mcp"] } }), "distinct_name");
    expect(f).toMatchObject({ points: 0, status: "unmet" });
    expect(f.evidence).toContain("com.evil/weather-mcp");
  });

  it("no_known_advisories: 10 none, 0 affected (ids named), not applicable without jspkg/pypkg packages", () => {
    expect(factor(buildFacts(), "no_known_advisories").points).toBe(10);
    const hit = factor(buildFacts({ packages: [jspkg({ advisories: [{ id: "GHSA-xxxx", summary: null, severity: "HIGH" }] })] }), "no_known_advisories");
    expect(hit).toMatchObject({ points: 0, status: "unmet" });
    expect(hit.evidence).toContain("GHSA-xxxx");
    expect(factor(buildFacts({ packages: [otherArtifact()] }), "no_known_advisories")).toMatchObject({ points: 0, status: "not_applicable" });
  });

  it("no_known_advisories: a listed package that is missing is named as missing, never as not listed", () => {
    const f = factor(buildFacts({ packages: [jspkg({ exists: false, deprecated: null, advisories: null, advisories_observed_at: null })] }), "no_known_advisories");
    expect(f).toMatchObject({ points: 0, status: "not_applicable" });
    expect(f.evidence).not.toMatch(/no listed jspkg or pypkg package/);
    expect(f.evidence).toContain("@acme/weather-mcp does not exist");
  });

  // The registry lists one package once per transport (stdio and streamable-http: 85 rows of the 2025-11-28
  // snapshot name a package twice), and a server may list a jspkg and a pypkg package side by side.
  it("no_known_advisories: counts each advisory once, however many listed entries it affects", () => {
    const adv = [{ id: "GHSA-xxxx", summary: null, severity: "HIGH" }];
    const twice = factor(buildFacts({ packages: [jspkg({ advisories: adv }), jspkg({ advisories: adv })] }), "no_known_advisories");
    expect(twice).toMatchObject({ points: 0, status: "unmet" });
    expect(twice.evidence).toBe("vuln: 1 advisory affects @acme/weather-mcp@1.4.0: GHSA-xxxx");
    const two = [...adv, { id: "GHSA-yyyy", summary: null, severity: "LOW" }];
    expect(factor(buildFacts({ packages: [jspkg({ advisories: two }), pypkg({ advisories: adv })] }), "no_known_advisories").evidence).toBe(
      "vuln: 2 advisories affect jspkg: @acme/weather-mcp@1.4.0; pypkg: acme-weather-mcp@1.4.0: GHSA-xxxx, GHSA-yyyy",
    );
    expect(factor(buildFacts({ packages: [jspkg(), jspkg()] }), "no_known_advisories").evidence).toMatch(/^vuln: no advisory affects @acme\/weather-mcp@1\.4\.0 \(/);
    expect(factor(buildFacts({ packages: [jspkg(), jspkg()] }), "pinned_versions").evidence).toMatch(/^registry: @acme\/weather-mcp@1\.4\.0 pinned \(/);
  });

  it("packages_intact: names each missing or deprecated package under its own ecosystem, each once", () => {
    const gone = { exists: false, deprecated: null, advisories: null, advisories_observed_at: null };
    const both = factor(buildFacts({ packages: [jspkg({ ...gone, identifier: "weather-js" }), pypkg({ ...gone, identifier: "weather-py" })] }), "packages_intact");
    expect(both).toMatchObject({ points: 0, status: "unmet" });
    expect(both.evidence).toMatch(/^jspkg: weather-js; pypkg: weather-py do not exist \(/);
    const missingTwice = factor(buildFacts({ packages: [jspkg(gone), jspkg(gone)] }), "packages_intact");
    expect(missingTwice.evidence).toMatch(/^jspkg: @acme\/weather-mcp does not exist \(/);
    const dep = factor(buildFacts({ packages: [jspkg({ deprecated: true }), pypkg({ deprecated: true })] }), "packages_intact");
    expect(dep.evidence).toMatch(/^jspkg: @acme\/weather-mcp@1\.4\.0; pypkg: acme-weather-mcp@1\.4\.0 deprecated \(/);
    const ok = factor(buildFacts({ packages: [jspkg(), jspkg(), pypkg({ deprecated: false })] }), "packages_intact");
    expect(ok).toMatchObject({ points: 5, status: "met" });
    expect(ok.evidence).toMatch(/^jspkg: @acme\/weather-mcp; pypkg: acme-weather-mcp exist, not deprecated \(/);
  });

  it("artifacts_available: when nothing answered, says only what is listed (no package claimed missing that is not listed)", () => {
    const down = remote({ url: "https://mcp.acme.example/mcp", live: false, http_status: 500 });
    const remoteOnly = factor(buildFacts({ packages: [], remotes: [down] }), "artifacts_available");
    expect(remoteOnly).toMatchObject({ points: 0, status: "unmet" });
    expect(remoteOnly.evidence).not.toMatch(/package/);
    expect(remoteOnly.evidence).toContain("https://mcp.acme.example/mcp");
    const ociAndRemote = factor(buildFacts({ packages: [otherArtifact()], remotes: [down] }), "artifacts_available");
    expect(ociAndRemote.evidence).not.toMatch(/package/);
    const packageOnly = factor(buildFacts({ packages: [jspkg({ exists: false })], remotes: [] }), "artifacts_available");
    expect(packageOnly).toMatchObject({ points: 0, status: "unmet" });
    expect(packageOnly.evidence).not.toMatch(/remote/);
    expect(packageOnly.evidence).toContain("@acme/weather-mcp");
  });

  it("https_endpoints: 0 for a plain-http remote, not applicable without remotes", () => {
    expect(factor(buildFacts({ remotes: [remote({ url: "http://mcp.acme.example/mcp" })] }), "https_endpoints")).toMatchObject({ points: 0, status: "unmet" });
    expect(factor(buildFacts({ remotes: [] }), "https_endpoints").status).toBe("not_applicable");
  });

  it.each([
    ["1.2.3", true],
    ["0.0.1-beta.1", true],
    ["latest", false],
    ["^1.2.0", false],
    [">=1.0", false],
    ["1.x", false],
    ["", false],
    [null, false],
    // tags that move, as the registry's listings carry them (OCI `:main`, `:test`, `:mcp`; PyPI `auto`): the facts
    // read every version not starting with a digit as no pin (lib/facts/listed-version-exists.ts pinnedVersion)
    ["main", false],
    ["test", false],
    ["auto", false],
    ["beta", false],
    ["v1.2.3", true],
    ["sha256:0123abcd", true],
  ])("isPinnedVersion(%s) is %s", (v, pinned) => {
    expect(isPinnedVersion(v)).toBe(pinned);
  });

  it("pinned_versions reads an OCI image's tag or digest when the listing gives no version", () => {
    const oci = (identifier: string) => ({ ...otherArtifact("oci", identifier), version: null });
    expect(factor(buildFacts({ packages: [oci("docker.io/acme/weather:1.2.0")] }), "pinned_versions").points).toBe(5);
    expect(factor(buildFacts({ packages: [oci("ghcr.io/acme/weather@sha256:abcd")] }), "pinned_versions").points).toBe(5);
    expect(factor(buildFacts({ packages: [oci("ghcr.io/acme/weather:latest")] }), "pinned_versions").points).toBe(0);
    expect(factor(buildFacts({ packages: [oci("ghcr.io/acme/weather")] }), "pinned_versions").points).toBe(0);
    expect(factor(buildFacts({ packages: [oci("docker.io/acme/weather:main")] }), "pinned_versions")).toMatchObject({ points: 0, status: "unmet" });
  });

  it("pinned_versions counts an MCPB bundle without a version as pinned: the registry requires its file's SHA-256", () => {
    // as the registry lists them: a release download URL, fileSha256 (not kept), usually no version
    const url = "https://github.com/acme/weather/releases/download/v1.2.0/weather.mcpb";
    const mcpb = { ...otherArtifact("mcpb", url), version: null };
    const f = factor(buildFacts({ packages: [jspkg(), mcpb] }), "pinned_versions");
    expect(f).toMatchObject({ points: 5, status: "met" });
    expect(f.evidence).toContain(`${url} (by its file's SHA-256)`);
    expect(f.evidence).not.toMatch(/no version|not pinned/);
  });

  it("catalog_tenure: 5 after 180 days, 3 after 30, 0 before", () => {
    expect(factor(buildFacts({ server: { first_seen_at: daysAgo(181) } }), "catalog_tenure").points).toBe(5);
    expect(factor(buildFacts({ server: { first_seen_at: daysAgo(31) } }), "catalog_tenure").points).toBe(3);
    expect(factor(buildFacts({ server: { first_seen_at: daysAgo(2) } }), "catalog_tenure").points).toBe(0);
  });
});
