import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DECISION_RANK } from "@/lib/engine/decision";
import { evaluate } from "@/lib/engine/evaluate";
import type { Facts, PackageFacts, RemoteFacts } from "@/lib/engine/facts";
import { POLICIES, type PreflightPolicy } from "@/lib/engine/policies";
import { toPreflightResult } from "@/lib/engine/preflight-result";
import { RULE_STAGES, ruleOrder, ruleStage } from "@/lib/engine/ruleset";
import { verifyEvaluation } from "@/lib/engine/verify";
import { preflightResultSchema } from "@/lib/schemas/preflight";
import { buildFacts, hoursAgo, jspkg, NOW, remote } from "./facts-builder";

const RUNS = 300;

// Times from 10 days in the future to ~400 days in the past, with the 48 h and 183 d edges likely.
const time = fc.oneof(
  fc.integer({ min: -240, max: 9600 }).map((h) => hoursAgo(h)),
  fc.constantFrom(hoursAgo(48), hoursAgo(48.001), hoursAgo(183 * 24), hoursAgo(183 * 24 + 0.001)),
);
const maybeTime = fc.option(time, { nil: null });
const maybeBool = fc.constantFrom(true, false, null);

const advisories = fc.option(
  fc.array(fc.record({ id: fc.constantFrom("GHSA-1", "GHSA-2", "PYSEC-3"), summary: fc.option(fc.string(), { nil: null }), severity: fc.constantFrom(null, "low", "high") }), { maxLength: 2 }),
  { nil: null },
);

const pkg = fc.record({
  ecosystem: fc.constantFrom("jspkg", "jspkg", "pypkg", "pypkg", "oci", "nuget", "mcpb"),
  version: fc.option(fc.constantFrom("1.0.0", "2.3.4"), { nil: null }),
  url: fc.constantFrom(null, "https://registry.example/pkg", "not a url"),
  exists: maybeBool,
  deprecated: maybeBool,
  advisories,
  observed_at: maybeTime,
  attempted_at: maybeTime,
  advisories_observed_at: maybeTime,
  advisories_attempted_at: maybeTime,
});

const rmt = fc.record({
  type: fc.constantFrom("streamable-http", "sse"),
  live: maybeBool,
  http_status: fc.constantFrom(null, 200, 401, 503),
  observed_at: maybeTime,
  attempted_at: maybeTime,
});

const factsArb: fc.Arbitrary<Facts> = fc
  .record({
    registry_status: fc.constantFrom("active", "active", "deprecated", "deleted", null),
    namespace_verification: fc.constantFrom("github" as const, "dns" as const, null),
    first_party: maybeBool,
    brand_claims: fc.array(fc.record({ brand: fc.constantFrom("Stripe", "Acme"), verified_by_namespace: maybeBool, impersonation: fc.boolean() }), { maxLength: 2 }),
    repository: fc.option(
      fc.record({
        url: fc.constantFrom("https://github.com/acme/weather-mcp", "github.com/acme/weather-mcp"),
        exists: maybeBool,
        archived: maybeBool,
        pushed_at: maybeTime,
        stars: fc.option(fc.nat(100_000), { nil: null }),
        observed_at: maybeTime,
        attempted_at: maybeTime,
      }),
      { nil: null },
    ),
    packages: fc.array(pkg, { maxLength: 4 }),
    remotes: fc.array(rmt, { maxLength: 3 }),
    lookalikes: fc.array(fc.constantFrom("io.github.a/weather-mcp", "com.b/weather-mcp"), { maxLength: 2 }),
  })
  .map((g) =>
    buildFacts({
      server: { registry_status: g.registry_status, namespace_verification: g.namespace_verification },
      identity: { first_party: g.first_party, basis: g.first_party === null ? null : "test", brand_claims: g.brand_claims },
      repository: g.repository,
      // unique identifiers and URLs, so a reason can be traced to its artifact
      packages: g.packages.map((p, i): PackageFacts => ({ ...p, identifier: `pkg-${i}` })),
      remotes: g.remotes.map((r, i): RemoteFacts => ({ ...r, url: `https://r${i}.example/mcp` })),
      lookalikes: { count: g.lookalikes.length, names: g.lookalikes },
    }),
  );

const policyArb = fc.constantFrom(...POLICIES);

/** Independent statement of DESIGN §5's required evidence: is any of it unknown in these facts? */
function hasUnknownRequired(f: Facts, p: PreflightPolicy): boolean {
  const r = f.repository;
  if (r === null || r.exists === null) return true;
  if (r.exists === true && (r.archived === null || r.pushed_at === null)) return true;
  for (const k of f.packages) {
    if (k.ecosystem !== "jspkg" && k.ecosystem !== "pypkg") continue;
    if (k.exists === null) return true;
    if (k.exists === true && k.ecosystem === "jspkg" && k.deprecated === null) return true;
    if (k.exists !== false && k.advisories === null) return true;
  }
  if (p.identity_requirement === "first_party" && f.identity.first_party === null) return true;
  if (p.hosted_liveness === "require_fresh_live") {
    for (const m of f.remotes) {
      if (m.observed_at === null || m.live === null) return true;
      if (NOW.getTime() - Date.parse(m.observed_at) > 48 * 3_600_000) return true;
    }
  }
  return false;
}

// Changes that each add a fact whose finding or requirement blocks under every policy.
const blockingChanges: { name: string; apply: (f: Facts) => Facts }[] = [
  { name: "repository gone", apply: (f) => ({ ...f, repository: { ...(f.repository ?? buildFacts().repository!), exists: false } }) },
  {
    name: "impersonating brand claim",
    apply: (f) => ({ ...f, identity: { ...f.identity, brand_claims: [...f.identity.brand_claims, { brand: "Stripe", verified_by_namespace: false, impersonation: true }] } }),
  },
  { name: "missing jspkg package", apply: (f) => ({ ...f, packages: [...f.packages, jspkg({ identifier: "gone", exists: false })] }) },
  { name: "deprecated jspkg package", apply: (f) => ({ ...f, packages: [...f.packages, jspkg({ identifier: "old", deprecated: true })] }) },
];

function reverseKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reverseKeys);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, reverseKeys(x)]));
  return v;
}

describe("engine properties", () => {
  it("adding a blocking fact never improves a decision (BLOCK < REVIEW < PASS)", () => {
    fc.assert(
      fc.property(factsArb, policyArb, fc.constantFrom(...blockingChanges), (facts, policy, change) => {
        const before = evaluate({ facts, policy, now: NOW }).decision;
        const after = evaluate({ facts: change.apply(facts), policy, now: NOW }).decision;
        expect(DECISION_RANK[after]).toBeLessThanOrEqual(DECISION_RANK[before]);
        expect(after).toBe("BLOCK");
      }),
      { numRuns: RUNS },
    );
  });

  it("a fresh down remote never improves a decision under any policy", () => {
    fc.assert(
      fc.property(factsArb, policyArb, (facts, policy) => {
        const before = evaluate({ facts, policy, now: NOW }).decision;
        const down = { ...facts, remotes: [...facts.remotes, remote({ url: "https://down.example/mcp", live: false, http_status: 503 })] };
        const after = evaluate({ facts: down, policy, now: NOW }).decision;
        expect(DECISION_RANK[after]).toBeLessThanOrEqual(DECISION_RANK[before]);
        if (policy.hosted_liveness === "require_fresh_live") expect(after).toBe("BLOCK");
      }),
      { numRuns: RUNS },
    );
  });

  it("no fact set with an unknown required fact yields PASS; strict turns it into BLOCK", () => {
    let withUnknown = 0;
    fc.assert(
      fc.property(factsArb, policyArb, (facts, policy) => {
        if (!hasUnknownRequired(facts, policy)) return;
        withUnknown++;
        const { decision } = evaluate({ facts, policy, now: NOW });
        expect(decision).not.toBe("PASS");
        if (policy.unknown_required === "block") expect(decision).toBe("BLOCK");
      }),
      { numRuns: RUNS },
    );
    expect(withUnknown).toBeGreaterThan(RUNS / 4);
  });

  it("a PASS has no review, block or required-unknown behind it", () => {
    let passes = 0;
    const healthy = factsArb.map((f) => (hasUnknownRequired(f, POLICIES[0]) ? buildFacts() : f));
    fc.assert(
      fc.property(healthy, policyArb, (facts, policy) => {
        const r = evaluate({ facts, policy, now: NOW });
        if (r.decision !== "PASS") return;
        passes++;
        expect(hasUnknownRequired(facts, policy)).toBe(false);
        expect(r.reasons.filter((x) => x.result === "review" || x.result === "block")).toEqual([]);
      }),
      { numRuns: RUNS },
    );
    expect(passes).toBeGreaterThan(0);
  });

  it("the same inputs give byte-identical digests and reasons, whatever the key order or copy", () => {
    fc.assert(
      fc.property(factsArb, policyArb, (facts, policy) => {
        const a = evaluate({ facts, policy, now: NOW });
        const b = evaluate({ facts: reverseKeys(JSON.parse(JSON.stringify(facts))) as Facts, policy: reverseKeys(policy) as PreflightPolicy, now: new Date(NOW.getTime()) });
        expect(b.facts_digest).toBe(a.facts_digest);
        expect(b.policy.digest).toBe(a.policy.digest);
        expect(b.decision_input_digest).toBe(a.decision_input_digest);
        expect(JSON.stringify(b.reasons)).toBe(JSON.stringify(a.reasons));
        expect(b.valid_until).toBe(a.valid_until);
      }),
      { numRuns: RUNS },
    );
  });

  it("reasons follow the fixed stage, artifact and rule order", () => {
    fc.assert(
      fc.property(factsArb, policyArb, (facts, policy) => {
        const { reasons } = evaluate({ facts, policy, now: NOW });
        const keys = reasons.map((r) => {
          const stage = ruleStage(r.code);
          expect(stage, `${r.code} is in the ruleset`).toBeDefined();
          let artifact = 0;
          if (stage === "package") artifact = facts.packages.findIndex((p) => r.artifact_id?.startsWith(`${p.ecosystem}:${p.identifier}`));
          if (stage === "remote") artifact = facts.remotes.findIndex((m) => m.url === r.artifact_id);
          expect(artifact).toBeGreaterThanOrEqual(0);
          return [RULE_STAGES.indexOf(stage!), artifact, ruleOrder(r.code)!];
        });
        for (let i = 1; i < keys.length; i++) {
          const [p, q] = [keys[i - 1], keys[i]];
          const cmp = p[0] - q[0] || p[1] - q[1] || p[2] - q[2];
          expect(cmp, `${reasons[i - 1].code} before ${reasons[i].code}`).toBeLessThan(0);
        }
        expect(reasons.slice(0, 7).map((r) => r.code)).toEqual([
          "identity_first_party", "brand_impersonation", "brand_claim_without_identity", "registry_listing_status",
          "repo_gone", "repo_archived", "repo_no_push_6mo",
        ]);
      }),
      { numRuns: RUNS },
    );
  });

  it("every reason cites evidence with observed_at or attempted_at", () => {
    fc.assert(
      fc.property(factsArb, policyArb, (facts, policy) => {
        for (const r of evaluate({ facts, policy, now: NOW }).reasons) {
          expect(r.evidence.some((e) => e.observed_at || e.attempted_at), r.code).toBe(true);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("every result validates against the strict PreflightResult schema and verifies offline", () => {
    fc.assert(
      fc.property(factsArb, policyArb, (facts, policy) => {
        const ev = evaluate({ facts, policy, now: NOW });
        const result = toPreflightResult(ev, null);
        const parsed = preflightResultSchema.safeParse(result);
        expect(parsed.success, parsed.success ? "" : JSON.stringify(parsed.error.issues)).toBe(true);
        expect(Date.parse(ev.valid_until)).toBeGreaterThanOrEqual(NOW.getTime());
        expect(Date.parse(ev.valid_until)).toBeLessThanOrEqual(NOW.getTime() + 24 * 3_600_000);
        expect(verifyEvaluation(JSON.parse(JSON.stringify(result)))).toEqual({ ok: true, mismatches: [], warnings: [] });
      }),
      { numRuns: RUNS },
    );
  });
});
