import { describe, expect, it } from "vitest";
import pkg from "@/package.json";
import { DECISION_MEANINGS } from "@/lib/engine/decision";
import { ENGINE_VERSION } from "@/lib/engine/engine-version";
import { evaluate } from "@/lib/engine/evaluate";
import { BASELINE_POLICY, FIRST_PARTY_POLICY, STRICT_POLICY } from "@/lib/engine/policies";
import { toPreflightResult } from "@/lib/engine/preflight-result";
import { RULESET } from "@/lib/engine/ruleset";
import { formatStamp } from "@/lib/engine/stamp";
import { preflightResultSchema } from "@/lib/schemas/preflight";
import { buildFacts, hoursAgo, jspkg, NOW, otherArtifact, pypkg, remote } from "./facts-builder";

describe("evaluate", () => {
  it("orders reasons identity, brand, listing, repository, each package, each remote, context", () => {
    const facts = buildFacts({
      packages: [pypkg(), otherArtifact("mcpb", "acme.mcpb"), jspkg()],
      remotes: [remote(), remote({ url: "https://sse.acme.example/sse", type: "sse" })],
      lookalikes: { count: 1, names: ["io.github.evil/weather-mcp"] },
    });
    const r = evaluate({ facts, policy: STRICT_POLICY, now: NOW });
    expect(r.reasons.map((x) => `${x.code}${x.artifact_id ? ` ${x.artifact_id}` : ""}`)).toEqual([
      "identity_first_party",
      "brand_impersonation",
      "brand_claim_without_identity",
      "registry_listing_status",
      "repo_gone",
      "repo_archived",
      "repo_no_push_6mo",
      "pypkg_package_missing pypkg:acme-weather-mcp@1.4.0",
      "vuln_package_advisory pypkg:acme-weather-mcp@1.4.0",
      "package_not_evaluated mcpb:acme.mcpb@1.4.0",
      "jspkg_package_missing jspkg:@acme/weather-mcp@1.4.0",
      "jspkg_deprecated jspkg:@acme/weather-mcp@1.4.0",
      "vuln_package_advisory jspkg:@acme/weather-mcp@1.4.0",
      "remote_liveness https://mcp.acme.example/mcp",
      "remote_liveness https://sse.acme.example/sse",
      "lookalike_names",
      "repo_stars",
    ]);
  });

  it("counts the lookalikes a summary leaves out from the full count, not from the names the facts list", () => {
    // facts list at most 100 names while `count` is the full number (lib/facts/load-facts.ts)
    const names = Array.from({ length: 100 }, (_, i) => `io.github.u${String(i).padStart(3, "0")}/weather-mcp`);
    const r = evaluate({ facts: buildFacts({ lookalikes: { count: 150, names } }), policy: BASELINE_POLICY, now: NOW });
    const summary = r.reasons.find((x) => x.code === "lookalike_names")!.summary;
    expect(summary).toMatch(/^150 other catalog servers use the name part weather-mcp: .* and 145 more; /);
  });

  it("names every rule code it emits in the ruleset", () => {
    const codes = new Set(RULESET.rules.map((r) => r.code));
    const facts = buildFacts({ packages: [pypkg(), jspkg(), otherArtifact()] });
    for (const policy of [BASELINE_POLICY, STRICT_POLICY]) {
      for (const reason of evaluate({ facts, policy, now: NOW }).reasons) expect(codes.has(reason.code)).toBe(true);
    }
    expect(RULESET.rules.map((r) => r.order)).toEqual(RULESET.rules.map((_, i) => i + 1));
  });

  it("cites the registry listing as attempt context for facts never attempted", () => {
    const facts = buildFacts({
      repository: { exists: null, archived: null, pushed_at: null, stars: null, observed_at: null, attempted_at: null },
      remotes: [remote({ live: null, http_status: null, observed_at: null, attempted_at: null })],
    });
    const r = evaluate({ facts, policy: STRICT_POLICY, now: NOW });
    const repoGone = r.reasons.find((x) => x.code === "repo_gone")!;
    expect(repoGone.result).toBe("unknown");
    expect(repoGone.summary).toContain("has not yet been observed");
    expect(repoGone.evidence).toEqual([
      { source: "repo", url: "https://github.com/acme/weather-mcp", value: { exists: null }, observed_at: null, attempted_at: null, freshness_enforced: false },
      {
        source: "registry",
        url: facts.server.listing_url,
        value: { repository_url: "https://github.com/acme/weather-mcp" },
        observed_at: facts.server.listing_observed_at,
        attempted_at: facts.server.listing_observed_at,
        freshness_enforced: false,
      },
    ]);
    const live = r.reasons.find((x) => x.code === "remote_liveness")!;
    expect(live.evidence.at(-1)!.source).toBe("registry");
  });

  it("gives a PASS, REVIEW and BLOCK their fixed meanings", () => {
    expect(evaluate({ facts: buildFacts(), policy: BASELINE_POLICY, now: NOW }).meaning).toBe(DECISION_MEANINGS.PASS);
    expect(DECISION_MEANINGS.PASS).toContain("not a security finding");
    expect(DECISION_MEANINGS.PASS).toContain("not an install or execution authorization");
    const review = evaluate({ facts: buildFacts({ repository: { archived: true } }), policy: BASELINE_POLICY, now: NOW });
    expect(review.meaning).toBe(DECISION_MEANINGS.REVIEW);
    const block = evaluate({ facts: buildFacts({ repository: { exists: false } }), policy: BASELINE_POLICY, now: NOW });
    expect(block.meaning).toBe(DECISION_MEANINGS.BLOCK);
  });

  it("fills the fixed fields", () => {
    const facts = buildFacts();
    const r = evaluate({ facts, policy: FIRST_PARTY_POLICY, now: NOW });
    expect(r).toMatchObject({
      decision_scope: "public_evidence_policy",
      server_name: "io.github.acme/weather-mcp",
      policy: { id: "builtin:first-party", revision: 1 },
      engine_version: ENGINE_VERSION,
      evaluated_at: "2026-03-01T12:00:00.000Z",
      audit_signed: false,
    });
    expect(r.facts).toBe(facts);
    expect(ENGINE_VERSION).toBe(pkg.version);
  });

  it("rejects an invalid clock and a foreign facts schema", () => {
    expect(() => evaluate({ facts: buildFacts(), policy: BASELINE_POLICY, now: new Date("nope") })).toThrow(RangeError);
    expect(() => evaluate({ facts: { ...buildFacts(), schema_version: 2 as 1 }, policy: BASELINE_POLICY, now: NOW })).toThrow(RangeError);
  });
});

describe("valid_until", () => {
  it("is evaluated_at + 24 h when nothing is freshness-enforced", () => {
    const r = evaluate({ facts: buildFacts({ remotes: [remote({ observed_at: hoursAgo(40) })] }), policy: BASELINE_POLICY, now: NOW });
    expect(r.valid_until).toBe("2026-03-02T12:00:00.000Z");
  });

  it("is the oldest fresh freshness-enforced observation + 48 h when that is earlier", () => {
    const facts = buildFacts({
      remotes: [remote({ observed_at: hoursAgo(10) }), remote({ url: "https://b.acme.example/mcp", observed_at: hoursAgo(30) })],
    });
    const r = evaluate({ facts, policy: STRICT_POLICY, now: NOW });
    expect(r.decision).toBe("PASS");
    expect(r.valid_until).toBe(new Date(NOW.getTime() + 18 * 3_600_000).toISOString());
  });

  it("stays at 24 h under strict when the observations are recent enough", () => {
    const r = evaluate({ facts: buildFacts({ remotes: [remote({ observed_at: hoursAgo(20) })] }), policy: STRICT_POLICY, now: NOW });
    expect(r.valid_until).toBe("2026-03-02T12:00:00.000Z");
  });

  it("ignores stale observations, which the decision did not rely on, and is never before evaluated_at", () => {
    const r = evaluate({ facts: buildFacts({ remotes: [remote({ observed_at: hoursAgo(100) })] }), policy: STRICT_POLICY, now: NOW });
    expect(r.decision).toBe("BLOCK");
    expect(r.valid_until).toBe("2026-03-02T12:00:00.000Z");
  });
});

describe("results and stamps", () => {
  it("validates against the strict PreflightResult schema once ok and audit_id are added", () => {
    const ev = evaluate({ facts: buildFacts({ packages: [jspkg(), otherArtifact()] }), policy: STRICT_POLICY, now: NOW });
    const anonymous = toPreflightResult(ev, null);
    expect(preflightResultSchema.parse(anonymous)).toEqual(anonymous);
    const keyed = toPreflightResult(ev, "7d0f6a52-6c7e-4a4f-9d3e-2b1d6f0b8c11");
    expect(preflightResultSchema.safeParse(keyed).success).toBe(true);
    expect(Object.keys(keyed)).toEqual([
      "ok", "decision", "decision_scope", "meaning", "server_name", "policy", "reasons", "facts", "facts_digest",
      "decision_input_digest", "engine_version", "evaluated_at", "valid_until", "audit_id", "audit_signed", "limitations",
    ]);
    expect(preflightResultSchema.safeParse({ ...anonymous, extra: 1 }).success).toBe(false);
  });

  it("formats the CATALOG-STAMP/1 line of DESIGN §10", () => {
    const ev = evaluate({ facts: buildFacts(), policy: STRICT_POLICY, now: NOW });
    expect(formatStamp(ev, null)).toBe(
      `CATALOG-STAMP/1 PASS io.github.acme/weather-mcp builtin:strict@1 facts=${ev.facts_digest} input=${ev.decision_input_digest} at=2026-03-01T12:00:00.000Z until=${ev.valid_until} audit=-`,
    );
    const id = "7d0f6a52-6c7e-4a4f-9d3e-2b1d6f0b8c11";
    expect(formatStamp(toPreflightResult(ev, id), id).endsWith(` audit=${id}`)).toBe(true);
    expect(formatStamp(ev, id)).not.toContain("\n");
  });
});
