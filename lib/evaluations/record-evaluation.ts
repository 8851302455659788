import { randomUUID } from "node:crypto";
import type { Queryable } from "@/lib/db/client";
import { evaluations } from "@/lib/db/schema";
import type { PreflightEvaluation } from "@/lib/engine/evaluate";

/**
 * Stores a keyed caller's evaluation under a fresh random audit id and returns
 * the id. Everything needed to re-run it offline is kept.
 */
export async function recordEvaluation(
  db: Queryable,
  result: PreflightEvaluation,
  owner: { accountId: string; keyId: string | null },
  completedAt = new Date(),
): Promise<string> {
  const id = randomUUID();
  await db.insert(evaluations).values({
    id,
    accountId: owner.accountId,
    keyId: owner.keyId,
    serverName: result.server_name,
    policyId: result.policy.id,
    policyRevision: result.policy.revision,
    decision: result.decision,
    facts: result.facts,
    reasons: result.reasons,
    limitations: result.limitations,
    factsDigest: result.facts_digest,
    policyDigest: result.policy.digest,
    decisionInputDigest: result.decision_input_digest,
    engineVersion: result.engine_version,
    evaluatedAt: new Date(result.evaluated_at),
    validUntil: new Date(result.valid_until),
    completedAt,
  });
  return id;
}
