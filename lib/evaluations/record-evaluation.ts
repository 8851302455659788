import { randomUUID } from "node:crypto";
import type { AlongsideWrite } from "@/lib/quota";
import type { PreflightEvaluation } from "@/lib/engine/evaluate";
import { canonicalFacts } from "@/lib/engine/digest";

// $1 id … $17 completed_at; facts, reasons and limitations as JSON text (stored as text: lib/db/schema/evaluations.ts).
const INTO = `evaluations (id, account_id, key_id, server_name, policy_id, policy_revision, decision,
    facts, reasons, limitations, facts_digest, policy_digest, decision_input_digest, engine_version,
    evaluated_at, valid_until, completed_at)`;
const SELECT = `$1::uuid, $2, $3, $4, $5, $6::int, $7, $8, $9, $10, $11, $12, $13, $14,
    $15::timestamptz, $16::timestamptz, $17::timestamptz`;

/**
 * The record of a keyed caller's evaluation under a fresh random audit id: everything needed to re-run it
 * offline. It is written in the same statement as the call's charge (lib/quota `alongside`), so an
 * evaluation is on record exactly when the call was paid for (or was a free repeat), and a record that
 * cannot be written leaves nothing spent.
 */
export function evaluationRecord(
  result: PreflightEvaluation,
  owner: { accountId: string; keyId: string | null },
  completedAt = new Date(),
): { id: string; write: AlongsideWrite } {
  const id = randomUUID();
  const values = [
    id,
    owner.accountId,
    owner.keyId,
    result.server_name,
    result.policy.id,
    result.policy.revision,
    result.decision,
    // the canonical text is JSON too, and for kept facts it is already worked out (the facts digest)
    canonicalFacts(result.facts).text,
    JSON.stringify(result.reasons),
    JSON.stringify(result.limitations),
    result.facts_digest,
    result.policy.digest,
    result.decision_input_digest,
    result.engine_version,
    result.evaluated_at,
    result.valid_until,
    completedAt.toISOString(),
  ];
  return { id, write: { name: "record_evaluation", into: INTO, select: SELECT, values } };
}
