import type { EvaluationRow } from "@/lib/db/schema";
import type { EvaluationDetail, EvaluationSummary } from "@/lib/schemas/preflight";
import { RULESET_ID, RULESET_REVISION } from "@/lib/engine/policies";
import { DECISION_SCOPE } from "@/lib/engine/types";

/** The columns a summary is made of: a list reads these, not the facts and reasons it would drop. */
export type EvaluationSummaryRow = Omit<EvaluationRow, "facts" | "reasons" | "limitations">;

export function toEvaluationSummary(row: EvaluationSummaryRow): EvaluationSummary {
  return {
    audit_id: row.id,
    server_name: row.serverName,
    policy_id: row.policyId as EvaluationSummary["policy_id"],
    policy_revision: row.policyRevision,
    decision: row.decision as EvaluationSummary["decision"],
    decision_scope: DECISION_SCOPE,
    facts_digest: row.factsDigest,
    policy_digest: row.policyDigest,
    decision_input_digest: row.decisionInputDigest,
    engine_version: row.engineVersion,
    evaluated_at: row.evaluatedAt.toISOString(),
    valid_until: row.validUntil.toISOString(),
    audit_signed: false,
  };
}

export function toEvaluationDetail(row: EvaluationRow): EvaluationDetail {
  return {
    ...toEvaluationSummary(row),
    ruleset_id: RULESET_ID,
    ruleset_revision: RULESET_REVISION,
    facts: JSON.parse(row.facts) as EvaluationDetail["facts"],
    reasons: JSON.parse(row.reasons) as EvaluationDetail["reasons"],
  };
}
