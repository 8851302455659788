import { describe, expect, it } from "vitest";
import { decisionInputDigest } from "@/lib/engine/digest";
import { ENGINE_VERSION } from "@/lib/engine/engine-version";
import { evaluate, type PreflightEvaluation } from "@/lib/engine/evaluate";
import { BASELINE_POLICY, STRICT_POLICY, RULESET_ID } from "@/lib/engine/policies";
import { toPreflightResult } from "@/lib/engine/preflight-result";
import { verifyEvaluation } from "@/lib/engine/verify";
import { evaluationDetailResponseSchema } from "@/lib/schemas/preflight";
import { buildFacts, hoursAgo, NOW, otherArtifact, remote, repo } from "./facts-builder";

const AUDIT_ID = "7d0f6a52-6c7e-4a4f-9d3e-2b1d6f0b8c11";

/** An EvaluationDetailResponse as the API returns it, after a trip through JSON. */
function detailOf(ev: PreflightEvaluation) {
  return JSON.parse(
    JSON.stringify({
      ok: true,
      evaluation: {
        audit_id: AUDIT_ID,
        server_name: ev.server_name,
        policy_id: ev.policy.id,
        policy_revision: ev.policy.revision,
        decision: ev.decision,
        decision_scope: ev.decision_scope,
        facts_digest: ev.facts_digest,
        policy_digest: ev.policy.digest,
        decision_input_digest: ev.decision_input_digest,
        engine_version: ev.engine_version,
        evaluated_at: ev.evaluated_at,
        valid_until: ev.valid_until,
        audit_signed: false,
        ruleset_id: RULESET_ID,
        ruleset_revision: 1,
        facts: ev.facts,
        reasons: ev.reasons,
      },
    }),
  );
}

const ev = evaluate({ facts: buildFacts({ remotes: [remote({ observed_at: hoursAgo(30) })] }), policy: STRICT_POLICY, now: NOW });

describe("verifyEvaluation", () => {
  it("accepts an untouched evaluation detail, its inner evaluation, and a PreflightResult", () => {
    const detail = detailOf(ev);
    expect(evaluationDetailResponseSchema.safeParse(detail).success).toBe(true);
    expect(verifyEvaluation(detail)).toEqual({ ok: true, mismatches: [], warnings: [] });
    expect(verifyEvaluation(detail.evaluation).ok).toBe(true);
    expect(verifyEvaluation(JSON.parse(JSON.stringify(toPreflightResult(ev, null))))).toEqual({ ok: true, mismatches: [], warnings: [] });
  });

  it("reports changed facts as a facts digest mismatch", () => {
    const detail = detailOf(ev);
    detail.evaluation.facts.repository.stars = 43;
    const report = verifyEvaluation(detail);
    expect(report.ok).toBe(false);
    expect(report.mismatches[0]).toMatch(/^facts_digest is sha256:[0-9a-f]{64}, recomputed sha256:[0-9a-f]{64}$/);
    expect(report.mismatches.some((m) => m.startsWith("decision_input_digest"))).toBe(true);
  });

  it("reports a changed decision, reason and validity", () => {
    const detail = detailOf(ev);
    detail.evaluation.decision = "REVIEW";
    detail.evaluation.reasons[4].result = "review";
    detail.evaluation.valid_until = "2026-03-02T12:00:00.000Z";
    const report = verifyEvaluation(detail);
    expect(report.mismatches).toEqual([
      "decision is REVIEW, recomputed PASS",
      `valid_until is 2026-03-02T12:00:00.000Z, recomputed ${ev.valid_until}`,
      "reason 5 is repo_gone/review, recomputed repo_gone/pass",
    ]);
  });

  it("names the member that differs when a reason keeps its code and result", () => {
    const detail = detailOf(ev);
    detail.evaluation.reasons[4].summary = "edited";
    detail.evaluation.reasons[5].evidence[0].observed_at = "2020-01-01T00:00:00.000Z";
    detail.evaluation.reasons[6].evidence[0].extra = 1;
    const report = verifyEvaluation(detail);
    expect(report.mismatches).toEqual([
      `reason 5 (repo_gone/pass) differs at summary: "edited", recomputed ${JSON.stringify(ev.reasons[4].summary)}`,
      `reason 6 (repo_archived/pass) differs at evidence[0].observed_at: "2020-01-01T00:00:00.000Z", recomputed "${ev.reasons[5].evidence[0].observed_at}"`,
      "reason 7 (repo_no_push_6mo/pass) differs at evidence[0].extra: 1, recomputed absent",
    ]);
  });

  it("reports a wrong policy digest and a changed evaluation time", () => {
    const detail = detailOf(ev);
    detail.evaluation.policy_digest = `sha256:${"0".repeat(64)}`;
    detail.evaluation.evaluated_at = "2026-03-01T12:00:00.001Z";
    const report = verifyEvaluation(detail);
    expect(report.mismatches[0]).toBe(`policy_digest is sha256:${"0".repeat(64)}, recomputed ${ev.policy.digest}`);
    expect(report.mismatches.some((m) => m.startsWith("decision_input_digest"))).toBe(true);
  });

  it("refuses to pass a decision made by another engine version: its rules are not the ones this one re-runs", () => {
    const old = evaluate({ facts: buildFacts(), policy: STRICT_POLICY, now: NOW, engineVersion: "0.0.1" });
    const report = verifyEvaluation(detailOf(old));
    expect(report.ok).toBe(false);
    // one line: the digests, which do not depend on the engine, matched
    expect(report.mismatches).toEqual([
      `engine_version is "0.0.1"; this is engine ${ENGINE_VERSION}, which re-runs only its own rules: verify the decision and reasons with release 0.0.1`,
    ]);
  });

  it("reports members no evaluation has, in each accepted shape: a reader would believe them", () => {
    const detail = detailOf(ev);
    detail.evaluation.verified = true;
    detail.evaluation.signature = "ed25519:AAAA";
    detail.decision = "PASS";
    expect(verifyEvaluation(detail).mismatches).toEqual(["decision, evaluation.verified, evaluation.signature: not a member of an evaluation"]);
    const inner = detailOf(ev).evaluation;
    inner.override = "PASS";
    expect(verifyEvaluation(inner).mismatches).toEqual(["override: not a member of an evaluation"]);
    const result = JSON.parse(JSON.stringify(toPreflightResult(ev, null)));
    result.policy.signed = true;
    expect(verifyEvaluation(result).mismatches).toEqual(["policy.signed: not a member of an evaluation"]);
  });

  it("takes valid_until only as an RFC 3339 date-time, in any offset, not whatever Date.parse reads", () => {
    const instant = Date.parse(ev.valid_until);
    const ok = detailOf(ev);
    ok.evaluation.valid_until = new Date(instant + 3_600_000).toISOString().replace("Z", "+01:00");
    expect(verifyEvaluation(ok).mismatches).toEqual([]);
    for (const forged of [
      // V8 reads both as the same instant: the first carries a claim, the second means local time to its reader
      `${new Date(instant).toUTCString().replace(" GMT", `.${String(instant % 1000).padStart(3, "0")} GMT`)} (renewed to 2099)`,
      ev.valid_until.replace("Z", ""),
    ]) {
      // (the second is this instant only where the machine's time zone is UTC: verify must not depend on it)
      if (forged.includes("GMT")) expect(Date.parse(forged)).toBe(instant);
      const detail = detailOf(ev);
      detail.evaluation.valid_until = forged;
      expect(verifyEvaluation(detail).mismatches, forged).toEqual([`valid_until is ${forged}, recomputed ${ev.valid_until}`]);
    }
  });

  it("reports a valid_until stated later by less than a millisecond: Date.parse drops the digits past the third", () => {
    for (const later of [ev.valid_until.replace("Z", "9Z"), ev.valid_until.replace("Z", "000001Z")]) {
      const detail = detailOf(ev);
      detail.evaluation.valid_until = later;
      expect(Date.parse(later)).toBe(Date.parse(ev.valid_until));
      expect(verifyEvaluation(detail).mismatches, later).toEqual([`valid_until is ${later}, recomputed ${ev.valid_until}`]);
    }
    // trailing zeros state the same instant
    const same = detailOf(ev);
    same.evaluation.valid_until = ev.valid_until.replace("Z", "000Z");
    expect(verifyEvaluation(same).mismatches).toEqual([]);
  });

  it("takes evaluated_at only as an RFC 3339 date-time too, so the verdict does not depend on the machine's time zone", () => {
    // a copy restating evaluated_at without its offset, its decision_input_digest recomputed over the new text: the
    // rules would be re-run at local time, which passes where the machine runs on UTC and fails elsewhere
    for (const forged of [ev.evaluated_at.replace("Z", ""), new Date(ev.evaluated_at).toUTCString()]) {
      const detail = detailOf(ev);
      detail.evaluation.evaluated_at = forged;
      detail.evaluation.decision_input_digest = decisionInputDigest({
        engine_version: ev.engine_version,
        policy_digest: ev.policy.digest,
        facts_digest: ev.facts_digest,
        as_of: forged,
      });
      expect(verifyEvaluation(detail).mismatches, forged).toEqual([`evaluated_at ${forged} is not an RFC 3339 date-time`]);
    }
    // another offset is still a date-time: verified, with a warning that the engine writes it otherwise
    const offset = detailOf(ev);
    offset.evaluation.evaluated_at = ev.evaluated_at.replace("T12:", "T13:").replace("Z", "+01:00");
    offset.evaluation.decision_input_digest = decisionInputDigest({
      engine_version: ev.engine_version,
      policy_digest: ev.policy.digest,
      facts_digest: ev.facts_digest,
      as_of: offset.evaluation.evaluated_at,
    });
    const report = verifyEvaluation(offset);
    expect(report.mismatches).toEqual([]);
    expect(report.warnings).toHaveLength(1);
  });

  it("reports an ok that is not true: an answer saying false is an error body, not an evaluation", () => {
    const detail = detailOf(ev);
    detail.ok = false;
    expect(verifyEvaluation(detail).mismatches).toEqual(["ok is false, but it is always true"]);
  });

  it("reports, never throws, what its checks do not foresee (a fact no reason text can hold: RangeError)", () => {
    const detail = detailOf(ev);
    // stands in for a 300 MB string in the facts, which made `npm run verify` die with a stack trace where a
    // recomputed reason holding it was written out as canonical JSON
    Object.defineProperty(detail.evaluation, "meaning", {
      enumerable: true,
      get: () => {
        throw new RangeError("Invalid string length");
      },
    });
    const report = verifyEvaluation(detail);
    expect(report.ok).toBe(false);
    expect(report.mismatches.at(-1)).toBe("the evaluation cannot be checked: Invalid string length");
  });

  it("quotes a policy_revision of the wrong type, so the message names the difference", () => {
    const detail = detailOf(ev);
    detail.evaluation.policy_revision = "1";
    expect(verifyEvaluation(detail).mismatches).toEqual([`policy_revision is "1", but builtin:strict has revision 1`]);
  });

  it("reports values the contract fixes when they are stated otherwise", () => {
    for (const [field, forged] of [
      ["decision_scope", "security"],
      ["audit_signed", true],
      ["ruleset_id", "other-ruleset"],
      ["ruleset_revision", 2],
    ] as const) {
      const detail = detailOf(ev);
      detail.evaluation[field] = forged;
      expect(verifyEvaluation(detail).mismatches, field).toEqual([`${field} is ${JSON.stringify(forged)}, but it is always ${JSON.stringify(detailOf(ev).evaluation[field])}`]);
    }
    const result = JSON.parse(JSON.stringify(toPreflightResult(ev, null)));
    result.audit_signed = true;
    expect(verifyEvaluation(result).ok).toBe(false);
  });

  it("reports a decision_scope or audit_signed left out: every shape it accepts states them", () => {
    for (const field of ["decision_scope", "audit_signed"] as const) {
      const detail = detailOf(ev);
      delete detail.evaluation[field];
      expect(verifyEvaluation(detail).mismatches, field).toEqual([`evaluation lacks ${field}, which is always ${JSON.stringify(detailOf(ev).evaluation[field])}`]);
      const result = JSON.parse(JSON.stringify(toPreflightResult(ev, null)));
      delete result[field];
      expect(verifyEvaluation(result).ok, field).toBe(false);
    }
  });

  it("reports a PreflightResult without its meaning or limitations: the copy would read as a decision with no limits", () => {
    // an OCI image the ruleset does not evaluate is named in limitations; dropping that line must not verify
    const oci = evaluate({ facts: buildFacts({ packages: [otherArtifact()] }), policy: BASELINE_POLICY, now: NOW });
    expect(oci.decision).toBe("PASS");
    for (const field of ["meaning", "limitations"] as const) {
      const result = JSON.parse(JSON.stringify(toPreflightResult(oci, AUDIT_ID)));
      delete result[field];
      expect(verifyEvaluation(result).mismatches, field).toEqual([`evaluation lacks ${field}`]);
    }
    // an evaluation detail states neither, and still verifies without them
    expect(verifyEvaluation(detailOf(oci)).ok).toBe(true);
  });

  it("reports malformed input without throwing", () => {
    expect(verifyEvaluation(null).mismatches).toEqual(["input is not an evaluation object"]);
    expect(verifyEvaluation({ ok: true, evaluation: {} }).ok).toBe(false);
    const detail = detailOf(ev);
    detail.evaluation.policy_id = "builtin:lenient";
    expect(verifyEvaluation(detail).mismatches).toEqual(["policy_id builtin:lenient is not a built-in policy"]);
    const bad = detailOf(ev);
    bad.evaluation.facts.server.listing_observed_at = "yesterday";
    expect(verifyEvaluation(bad).mismatches.some((m) => m.startsWith("facts do not match facts schema 1"))).toBe(true);
    // a date-time a Date holds, but whose validity window (+24 h) it cannot: the rules cannot run at it
    const edge = detailOf(ev);
    edge.evaluation.evaluated_at = "+275760-09-13T00:00:00.000Z";
    const report = verifyEvaluation(edge);
    expect(report.ok).toBe(false);
    expect(report.mismatches.at(-1)).toMatch(/^the rules cannot be re-run at evaluated_at \+275760-09-13T00:00:00.000Z: /);
  });

  it("shows where two long texts part, not the same first 117 characters of both", () => {
    const name = `weather-mcp-${"long-".repeat(20)}name`;
    const long = evaluate({ facts: buildFacts({ repository: repo({ url: `https://github.com/acme/${name}`, name }) }), policy: STRICT_POLICY, now: NOW });
    const summary = long.reasons[4].summary;
    expect(summary.length).toBeGreaterThan(150);
    const detail = detailOf(long);
    detail.evaluation.reasons[4].summary = `${summary.slice(0, -1)}, edited.`;
    const [mismatch] = verifyEvaluation(detail).mismatches;
    expect(mismatch).toMatch(/^reason 5 \(repo_gone\/pass\) differs at summary: \.\.\..*, edited\.", recomputed \.\.\..*000Z\)\."$/);
  });
});
