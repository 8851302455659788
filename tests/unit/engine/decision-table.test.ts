import { describe, expect, it } from "vitest";
import { evaluate } from "@/lib/engine/evaluate";
import { BASELINE_POLICY, FIRST_PARTY_POLICY, POLICIES, STRICT_POLICY, type PreflightPolicy } from "@/lib/engine/policies";
import type { Decision, PreflightReason, ReasonResult } from "@/lib/engine/types";
import { buildFacts, daysAgo, hoursAgo, jspkg, NOW, pypkg, remote, type FactsOverrides } from "./facts-builder";

const run = (o: FactsOverrides, policy: PreflightPolicy) => evaluate({ facts: buildFacts(o), policy, now: NOW });

function reason(reasons: PreflightReason[], code: string, artifactId?: string): PreflightReason {
  const found = reasons.filter((r) => r.code === code && (artifactId === undefined || r.artifact_id === artifactId));
  expect(found, `exactly one ${code} reason`).toHaveLength(1);
  return found[0];
}

describe("a fully observed healthy server", () => {
  it.each(POLICIES.map((p) => [p.name, p] as const))("passes %s with no review, block or unknown reason", (_, policy) => {
    const r = run({}, policy);
    expect(r.decision).toBe("PASS");
    expect(r.reasons.filter((x) => ["review", "block", "unknown"].includes(x.result))).toEqual([]);
  });
});

// Each finding, produced by one change to healthy facts. Every policy carries the same outcomes (contract).
const FINDINGS: { finding: string; overrides: FactsOverrides; outcome: "block" | "review"; artifact?: string }[] = [
  {
    finding: "brand_impersonation",
    overrides: { identity: { brand_claims: [{ brand: "Stripe", verified_by_namespace: false, impersonation: true }] } },
    outcome: "block",
  },
  {
    finding: "brand_claim_without_identity",
    overrides: { identity: { brand_claims: [{ brand: "Stripe", verified_by_namespace: false, impersonation: false }] } },
    outcome: "review",
  },
  { finding: "repo_gone", overrides: { repository: { exists: false } }, outcome: "block" },
  { finding: "repo_archived", overrides: { repository: { archived: true } }, outcome: "review" },
  {
    finding: "jspkg_package_missing",
    overrides: { packages: [jspkg({ exists: false })] },
    outcome: "block",
    artifact: "jspkg:@acme/weather-mcp@1.4.0",
  },
  {
    finding: "pypkg_package_missing",
    overrides: { packages: [pypkg({ exists: false })] },
    outcome: "block",
    artifact: "pypkg:acme-weather-mcp@1.4.0",
  },
  {
    finding: "jspkg_deprecated",
    overrides: { packages: [jspkg({ deprecated: true })] },
    outcome: "block",
    artifact: "jspkg:@acme/weather-mcp@1.4.0",
  },
  { finding: "repo_no_push_6mo", overrides: { repository: { pushed_at: daysAgo(184) } }, outcome: "review" },
  {
    finding: "vuln_package_advisory",
    overrides: { packages: [pypkg({ advisories: [{ id: "GHSA-xxxx-yyyy-zzzz", summary: "RCE", severity: "high" }] })] },
    outcome: "review",
    artifact: "pypkg:acme-weather-mcp@1.4.0",
  },
];

describe("every finding under every policy", () => {
  const rows = FINDINGS.flatMap((f) => POLICIES.map((p) => ({ ...f, policy: p })));
  it.each(rows)("$finding under $policy.name → $outcome", ({ finding, overrides, outcome, artifact, policy }) => {
    const r = run(overrides, policy);
    const found = reason(r.reasons, finding, artifact);
    expect(found.result).toBe(outcome);
    expect(r.decision).toBe(outcome === "block" ? "BLOCK" : "REVIEW");
    expect(policy.findings[finding as keyof typeof policy.findings]).toBe(outcome);
  });

  it("covers all nine finding keys", () => {
    expect(FINDINGS.map((f) => f.finding).sort()).toEqual(Object.keys(BASELINE_POLICY.findings).sort());
  });

  it("repo_no_push_6mo passes at exactly 183 days and fires one millisecond later", () => {
    const at183 = new Date(NOW.getTime() - 183 * 86_400_000).toISOString();
    const after = new Date(NOW.getTime() - 183 * 86_400_000 - 1).toISOString();
    expect(reason(run({ repository: { pushed_at: at183 } }, BASELINE_POLICY).reasons, "repo_no_push_6mo").result).toBe("pass");
    expect(reason(run({ repository: { pushed_at: after } }, BASELINE_POLICY).reasons, "repo_no_push_6mo").result).toBe("review");
  });

  it("an impersonating claim is not also counted as a claim without identity", () => {
    const r = run(FINDINGS[0].overrides, BASELINE_POLICY);
    expect(reason(r.reasons, "brand_claim_without_identity").result).toBe("pass");
  });

  it("a claim whose namespace verification was not determined is a claim without identity", () => {
    const r = run({ identity: { brand_claims: [{ brand: "Acme", verified_by_namespace: null, impersonation: false }] } }, BASELINE_POLICY);
    expect(reason(r.reasons, "brand_claim_without_identity").result).toBe("review");
    expect(r.decision).toBe("REVIEW");
  });

  it("a claim verified by the namespace passes", () => {
    const r = run({ identity: { brand_claims: [{ brand: "Acme", verified_by_namespace: true, impersonation: false }] } }, STRICT_POLICY);
    expect(reason(r.reasons, "brand_claim_without_identity").result).toBe("pass");
    expect(r.decision).toBe("PASS");
  });
});

// Each required fact made unknown; strict fails closed, the others ask for review.
const UNKNOWN_REQUIRED: { what: string; overrides: FactsOverrides; code: string }[] = [
  { what: "no repository listed", overrides: { repository: null }, code: "repo_gone" },
  { what: "repository never observed", overrides: { repository: { exists: null, archived: null, pushed_at: null, stars: null, observed_at: null, attempted_at: null } }, code: "repo_gone" },
  { what: "repository presence failed to be observed", overrides: { repository: { exists: null, observed_at: null, attempted_at: hoursAgo(1) } }, code: "repo_gone" },
  { what: "archive state of an existing repository", overrides: { repository: { archived: null } }, code: "repo_archived" },
  { what: "last push of an existing repository", overrides: { repository: { pushed_at: null } }, code: "repo_no_push_6mo" },
  { what: "jspkg presence", overrides: { packages: [jspkg({ exists: null, deprecated: null, observed_at: null, attempted_at: null })] }, code: "jspkg_package_missing" },
  { what: "pypkg presence", overrides: { packages: [pypkg({ exists: null, observed_at: null, attempted_at: null })] }, code: "pypkg_package_missing" },
  { what: "jspkg deprecation of an existing package", overrides: { packages: [jspkg({ deprecated: null })] }, code: "jspkg_deprecated" },
  { what: "jspkg vuln look-up", overrides: { packages: [jspkg({ advisories: null, advisories_observed_at: null, advisories_attempted_at: null })] }, code: "vuln_package_advisory" },
  { what: "pypkg vuln look-up", overrides: { packages: [pypkg({ advisories: null, advisories_observed_at: null })] }, code: "vuln_package_advisory" },
];

describe("unknown required evidence takes the policy's unknown_required", () => {
  const expected: Record<string, Decision> = { review: "REVIEW", block: "BLOCK" };
  const rows = UNKNOWN_REQUIRED.flatMap((u) => POLICIES.map((p) => ({ ...u, policy: p })));
  it.each(rows)("$what under $policy.name", ({ overrides, code, policy }) => {
    const r = run(overrides, policy);
    expect(reason(r.reasons, code).result).toBe("unknown");
    expect(r.decision).toBe(expected[policy.unknown_required]);
    expect(r.reasons.some((x) => x.result === "block" || x.result === "review")).toBe(false);
  });

  it("an unknown fact that is not required does not change a PASS", () => {
    const r = run({ server: { registry_status: null } }, STRICT_POLICY);
    expect(reason(r.reasons, "registry_listing_status").result).toBe("unknown");
    expect(r.decision).toBe("PASS");
  });

  it("a missing package makes its vuln look-up not_applicable rather than unknown", () => {
    const r = run({ packages: [jspkg({ exists: false, advisories: null })] }, STRICT_POLICY);
    expect(reason(r.reasons, "vuln_package_advisory").result).toBe("not_applicable");
    expect(reason(r.reasons, "jspkg_deprecated").result).toBe("not_applicable");
  });

  it("a non-active registry listing is review under every policy", () => {
    for (const policy of POLICIES) {
      const r = run({ server: { registry_status: "deprecated" } }, policy);
      expect(reason(r.reasons, "registry_listing_status").result).toBe("review");
      expect(r.decision).toBe("REVIEW");
    }
  });
});

describe("first-party identity", () => {
  const cases: { policy: PreflightPolicy; first_party: boolean | null; result: ReasonResult; decision: Decision }[] = [
    { policy: BASELINE_POLICY, first_party: true, result: "context", decision: "PASS" },
    { policy: BASELINE_POLICY, first_party: false, result: "context", decision: "PASS" },
    { policy: BASELINE_POLICY, first_party: null, result: "context", decision: "PASS" },
    { policy: FIRST_PARTY_POLICY, first_party: true, result: "pass", decision: "PASS" },
    { policy: FIRST_PARTY_POLICY, first_party: false, result: "review", decision: "REVIEW" },
    { policy: FIRST_PARTY_POLICY, first_party: null, result: "unknown", decision: "REVIEW" },
    { policy: STRICT_POLICY, first_party: true, result: "pass", decision: "PASS" },
    { policy: STRICT_POLICY, first_party: false, result: "block", decision: "BLOCK" },
    { policy: STRICT_POLICY, first_party: null, result: "unknown", decision: "BLOCK" },
  ];
  it.each(cases)("first_party=$first_party under $policy.name → $result, $decision", ({ policy, first_party, result, decision }) => {
    const r = run({ identity: { first_party, basis: first_party === null ? null : "test" } }, policy);
    const identity = r.reasons[0];
    expect(identity.code).toBe("identity_first_party");
    expect(identity.result).toBe(result);
    expect(r.decision).toBe(decision);
  });
});

describe("remote liveness", () => {
  const states: { state: string; remote: ReturnType<typeof remote>; strict: ReasonResult; strictDecision: Decision }[] = [
    { state: "fresh live", remote: remote({ observed_at: hoursAgo(47), attempted_at: hoursAgo(47) }), strict: "pass", strictDecision: "PASS" },
    { state: "live exactly 48 h ago", remote: remote({ observed_at: hoursAgo(48), attempted_at: hoursAgo(48) }), strict: "pass", strictDecision: "PASS" },
    {
      state: "live 48 h and 1 ms ago (stale)",
      remote: remote({ observed_at: new Date(NOW.getTime() - 48 * 3_600_000 - 1).toISOString() }),
      strict: "unknown",
      strictDecision: "BLOCK",
    },
    { state: "stale live", remote: remote({ observed_at: hoursAgo(72), attempted_at: hoursAgo(72) }), strict: "unknown", strictDecision: "BLOCK" },
    { state: "fresh down", remote: remote({ live: false, http_status: 503, observed_at: hoursAgo(2) }), strict: "block", strictDecision: "BLOCK" },
    { state: "stale down", remote: remote({ live: false, http_status: 503, observed_at: hoursAgo(100) }), strict: "unknown", strictDecision: "BLOCK" },
    { state: "never observed", remote: remote({ live: null, http_status: null, observed_at: null, attempted_at: null }), strict: "unknown", strictDecision: "BLOCK" },
    { state: "attempted without answer", remote: remote({ live: null, http_status: null, observed_at: null, attempted_at: hoursAgo(1) }), strict: "unknown", strictDecision: "BLOCK" },
  ];

  it.each(states)("$state: strict@1 → $strict, $strictDecision", ({ remote: rm, strict, strictDecision }) => {
    const r = run({ remotes: [rm] }, STRICT_POLICY);
    const live = reason(r.reasons, "remote_liveness");
    expect(live.result).toBe(strict);
    expect(live.evidence[0].freshness_enforced).toBe(true);
    expect(r.decision).toBe(strictDecision);
  });

  it.each(states)("$state: observe_only policies report context and PASS", ({ remote: rm }) => {
    for (const policy of [BASELINE_POLICY, FIRST_PARTY_POLICY]) {
      const r = run({ remotes: [rm] }, policy);
      const live = reason(r.reasons, "remote_liveness");
      expect(live.result).toBe("context");
      expect(live.evidence[0].freshness_enforced).toBe(false);
      expect(r.decision).toBe("PASS");
    }
  });

  it("a server without remotes has no liveness requirement under strict", () => {
    const r = run({ remotes: [] }, STRICT_POLICY);
    expect(r.reasons.some((x) => x.code === "remote_liveness")).toBe(false);
    expect(r.decision).toBe("PASS");
  });

  it("every remote must be fresh and live under strict", () => {
    const r = run({ remotes: [remote(), remote({ url: "https://sse.acme.example/sse", type: "sse", observed_at: hoursAgo(60) })] }, STRICT_POLICY);
    expect(r.reasons.filter((x) => x.code === "remote_liveness").map((x) => x.result)).toEqual(["pass", "unknown"]);
    expect(r.decision).toBe("BLOCK");
  });
});

describe("artifacts outside the ruleset", () => {
  it.each(["oci", "nuget", "mcpb"])("%s is not_applicable, named in limitations, and does not change the decision", (eco) => {
    const r = run({ packages: [jspkg(), { ...jspkg(), ecosystem: eco, identifier: `${eco}-artifact`, exists: null, advisories: null }] }, STRICT_POLICY);
    const na = reason(r.reasons, "package_not_evaluated");
    expect(na).toMatchObject({ result: "not_applicable", ecosystem: eco, artifact_id: `${eco}:${eco}-artifact@1.4.0` });
    expect(r.limitations.some((l) => l.includes(`${eco} artifact ${eco}-artifact@1.4.0`))).toBe(true);
    expect(r.decision).toBe("PASS");
  });
});
