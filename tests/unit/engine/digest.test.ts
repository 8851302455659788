import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { canonicalFacts, canonicalJson, decisionInputDigest, factsDigest, policyDigest, sha256Digest } from "@/lib/engine/digest";
import { deepFreeze } from "@/lib/cache/deep-freeze";
import { evaluate } from "@/lib/engine/evaluate";
import { BASELINE_POLICY, POLICIES } from "@/lib/engine/policies";
import { buildFacts, NOW } from "./facts-builder";

const sha = (text: string) => `sha256:${createHash("sha256").update(text, "utf8").digest("hex")}`;

describe("sha256Digest (RFC 8785 canonical JSON)", () => {
  it("hashes keys sorted at every depth, without whitespace, undefined members left out", () => {
    const value = { b: 2, a: "x", c: [1, { e: null, d: true, skip: undefined }], "é": 1.5 };
    const jcs = '{"a":"x","b":2,"c":[1,{"d":true,"e":null}],"é":1.5}';
    expect(canonicalJson(value)).toBe(jcs);
    expect(sha256Digest(value)).toBe(sha(jcs));
  });

  it("writes numbers in ECMAScript form", () => {
    expect(canonicalJson({ n: [1.0, 1e21, 0.000001, -0] })).toBe('{"n":[1,1e+21,0.000001,0]}');
  });

  it("matches a digest computed by hand for a known string", () => {
    // echo -n '{"a":1}' | sha256sum
    expect(sha256Digest({ a: 1 })).toBe("sha256:015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862");
  });

  it("digests the baseline policy exactly as its canonical JSON written out by hand", () => {
    const jcs =
      '{"findings":{"brand_claim_without_identity":"review","brand_impersonation":"block","jspkg_deprecated":"block",' +
      '"jspkg_package_missing":"block","pypkg_package_missing":"block","repo_archived":"review","repo_gone":"block",' +
      '"repo_no_push_6mo":"review","vuln_package_advisory":"review"},"hosted_liveness":"observe_only",' +
      '"id":"builtin:baseline","identity_requirement":"any","max_liveness_age_hours":48,"name":"baseline@1",' +
      '"revision":1,"ruleset_id":"preflight-ruleset","ruleset_revision":1,"schema_version":1,"unknown_required":"review"}';
    expect(policyDigest(BASELINE_POLICY)).toBe(sha(jcs));
  });

  it("keeps the published digests of the immutable policies", () => {
    expect(Object.fromEntries(POLICIES.map((p) => [p.id, policyDigest(p)]))).toEqual({
      "builtin:baseline": "sha256:496b6e4a5c8c0cc40398f094cb460e97dee942328fe352a9ee8f4a66aa80ee6d",
      "builtin:first-party": "sha256:7d1d9bb97d4fc723fa4be32209f85b5d58f51190145095756549a9cc862ef63a",
      "builtin:strict": "sha256:6fdb9bfa9ae66742fd39d833789db6f5b2c4774f7eef07cb4e7114b06893e389",
    });
  });

  it("gives the three policies three different digests, stable across calls", () => {
    const digests = POLICIES.map(policyDigest);
    expect(new Set(digests).size).toBe(3);
    expect(POLICIES.map((p) => policyDigest({ ...p, findings: { ...p.findings } }))).toEqual(digests);
  });

  it("computes decision_input_digest over exactly {engine_version, policy_digest, facts_digest, as_of}", () => {
    const input = {
      engine_version: "0.1.0",
      policy_digest: `sha256:${"a".repeat(64)}`,
      facts_digest: `sha256:${"b".repeat(64)}`,
      as_of: "2026-03-01T12:00:00.000Z",
    };
    const jcs = `{"as_of":"2026-03-01T12:00:00.000Z","engine_version":"0.1.0","facts_digest":"sha256:${"b".repeat(64)}","policy_digest":"sha256:${"a".repeat(64)}"}`;
    expect(decisionInputDigest(input)).toBe(sha(jcs));
  });

  it("writes the decision input's text exactly as the JCS library does, for any strings and for values that are not strings", () => {
    const tricky = ["", "0.1.0", 'quote " and \\ backslash', "line\nbreak\u0000nul\u001f", "é 日本 😀", "\ud800 lone surrogate", "\u2028\u2029", "</script>"];
    for (const a of tricky)
      for (const b of tricky.slice(0, 4)) {
        const input = { engine_version: a, policy_digest: b, facts_digest: `${b}${a}`, as_of: a.toUpperCase() };
        expect(decisionInputDigest(input)).toBe(sha(canonicalJson({ ...input })));
      }
    const odd = { engine_version: 1, policy_digest: null, facts_digest: undefined, as_of: ["x"] } as unknown as Parameters<typeof decisionInputDigest>[0];
    expect(decisionInputDigest(odd)).toBe(sha(canonicalJson({ engine_version: 1, policy_digest: null, as_of: ["x"] })));
  });

  it("ties an evaluation's digests to its facts, policy, engine version and time", () => {
    const facts = buildFacts();
    const r = evaluate({ facts, policy: BASELINE_POLICY, now: NOW, engineVersion: "9.9.9" });
    expect(r.facts_digest).toBe(sha(canonicalJson(facts)));
    expect(r.facts_digest).toBe(factsDigest(JSON.parse(JSON.stringify(facts))));
    expect(r.policy.digest).toBe(policyDigest(BASELINE_POLICY));
    expect(r.decision_input_digest).toBe(
      decisionInputDigest({ engine_version: "9.9.9", policy_digest: r.policy.digest, facts_digest: r.facts_digest, as_of: "2026-03-01T12:00:00.000Z" }),
    );
    const later = evaluate({ facts, policy: BASELINE_POLICY, now: new Date(NOW.getTime() + 1), engineVersion: "9.9.9" });
    expect(later.facts_digest).toBe(r.facts_digest);
    expect(later.decision_input_digest).not.toBe(r.decision_input_digest);
    const otherEngine = evaluate({ facts, policy: BASELINE_POLICY, now: NOW, engineVersion: "9.9.10" });
    expect(otherEngine.decision_input_digest).not.toBe(r.decision_input_digest);
  });
});

describe("canonicalFacts (worked out once per deep-frozen facts object)", () => {
  it("gives the same text and digest as canonicalizing the facts, frozen or not", () => {
    const plain = buildFacts();
    const frozen = deepFreeze(buildFacts());
    expect(canonicalFacts(plain)).toEqual({ text: canonicalJson(plain), digest: sha256Digest(plain) });
    expect(canonicalFacts(frozen)).toEqual(canonicalFacts(plain));
    expect(factsDigest(frozen)).toBe(sha256Digest(plain));
  });

  it("keeps the result for frozen facts (the same object every time) and recomputes for unfrozen ones", () => {
    const frozen = deepFreeze(buildFacts());
    expect(canonicalFacts(frozen)).toBe(canonicalFacts(frozen));
    const plain = buildFacts();
    const before = factsDigest(plain);
    plain.server.name = "io.example/changed";
    expect(factsDigest(plain)).not.toBe(before);
    expect(factsDigest(plain)).toBe(sha256Digest(plain));
  });
});
