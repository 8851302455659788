import { describe, expect, it } from "vitest";
import { policyDigest } from "@/lib/engine/digest";
import { factsSchema } from "@/lib/engine/facts";
import { getPolicy, POLICIES, POLICY_IDS, STRICT_POLICY } from "@/lib/engine/policies";
import { RULESET } from "@/lib/engine/ruleset";
import {
  evaluationListSchema,
  policyCatalogSchema,
  preflightInputSchema,
  preflightPolicySchema,
} from "@/lib/schemas/preflight";
import { buildFacts } from "./facts-builder";

describe("preflightInputSchema", () => {
  it("fills the defaults", () => {
    expect(preflightInputSchema.parse({ server_name: "io.github.acme/weather-mcp" })).toEqual({
      server_name: "io.github.acme/weather-mcp",
      policy_id: "builtin:baseline",
      refresh: "never",
    });
  });

  it.each([
    ["an extra field", { server_name: "a/b", extra: true }],
    ["an empty name", { server_name: "" }],
    ["a 301-character name", { server_name: "x".repeat(301) }],
    ["a name that is not a string", { server_name: 7 }],
    ["an unknown policy", { server_name: "a/b", policy_id: "builtin:lenient" }],
    ["an unknown refresh", { server_name: "a/b", refresh: "always" }],
    ["no name", {}],
  ])("rejects %s", (_, body) => {
    expect(preflightInputSchema.safeParse(body).success).toBe(false);
  });

  it("accepts a 300-character name", () => {
    expect(preflightInputSchema.safeParse({ server_name: "x".repeat(300), refresh: "if_stale" }).success).toBe(true);
  });
});

describe("policies", () => {
  it("are the three of DESIGN §4, closed and immutable", () => {
    expect(POLICIES.map((p) => [p.id, p.name, p.identity_requirement, p.hosted_liveness, p.unknown_required, p.max_liveness_age_hours])).toEqual([
      ["builtin:baseline", "baseline@1", "any", "observe_only", "review", 48],
      ["builtin:first-party", "first-party@1", "first_party", "observe_only", "review", 48],
      ["builtin:strict", "strict@1", "first_party", "require_fresh_live", "block", 48],
    ]);
    for (const p of POLICIES) expect(preflightPolicySchema.parse(p)).toEqual(p);
    expect(Object.isFrozen(STRICT_POLICY) && Object.isFrozen(STRICT_POLICY.findings)).toBe(true);
    expect(() => {
      (STRICT_POLICY as { unknown_required: string }).unknown_required = "review";
    }).toThrow(TypeError);
    expect(POLICY_IDS.map((id) => getPolicy(id)?.id)).toEqual([...POLICY_IDS]);
    expect(getPolicy("builtin:other")).toBeUndefined();
    expect(preflightPolicySchema.safeParse({ ...STRICT_POLICY, findings: { ...STRICT_POLICY.findings, repo_gone: "review" } }).success).toBe(false);
  });

  it("form a valid policy catalog with the ruleset", () => {
    const catalog = {
      ok: true,
      policies: POLICIES,
      ruleset: RULESET,
      policy_digests: Object.fromEntries(POLICIES.map((p) => [p.id, policyDigest(p)])),
      audit_signed: false,
    };
    expect(policyCatalogSchema.safeParse(catalog).success).toBe(true);
    expect(policyCatalogSchema.safeParse({ ...catalog, policies: POLICIES.slice(0, 2) }).success).toBe(false);
  });
});

describe("factsSchema", () => {
  it("accepts built facts and rejects extra or missing members", () => {
    const facts = buildFacts();
    expect(factsSchema.parse(facts)).toEqual(facts);
    expect(factsSchema.safeParse({ ...facts, extra: 1 }).success).toBe(false);
    const { lookalikes: _, ...missing } = facts;
    expect(factsSchema.safeParse(missing).success).toBe(false);
    expect(factsSchema.safeParse({ ...facts, repository: null }).success).toBe(true);
  });
});

describe("evaluationListSchema", () => {
  it("holds count to the number of evaluations and at most 50", () => {
    expect(evaluationListSchema.safeParse({ ok: true, count: 0, evaluations: [] }).success).toBe(true);
    expect(evaluationListSchema.safeParse({ ok: true, count: 1, evaluations: [] }).success).toBe(false);
    expect(evaluationListSchema.safeParse({ ok: true, count: 51, evaluations: [] }).success).toBe(false);
  });
});
