import { decide, DECISION_MEANINGS } from "./decision";
import { decisionInputDigest, factsDigest, policyDigest, type Digest } from "./digest";
import { ENGINE_VERSION } from "./engine-version";
import type { Facts } from "./facts";
import { buildLimitations } from "./limitations";
import type { PolicyId, PreflightPolicy } from "./policies";
import { brandClaimWithoutIdentity, brandImpersonation } from "./rules/brand";
import { lookalikeNames, repoStars } from "./rules/context";
import { identityFirstParty } from "./rules/identity";
import { packageRules } from "./rules/packages";
import { registryListingStatus } from "./rules/registry-listing";
import { remoteLiveness } from "./rules/remotes";
import { repoArchived, repoGone, repoNoPush6mo } from "./rules/repository";
import { ruleContext, type RuleOutcome } from "./rules/rule-context";
import { DECISION_SCOPE, type Decision, type PreflightReason } from "./types";
import { computeValidUntil } from "./valid-until";

export interface EvaluateInput {
  facts: Facts;
  policy: PreflightPolicy;
  /** The evaluation time; the engine never reads a clock. */
  now: Date;
  /** Defaults to this build's ENGINE_VERSION; verification passes the version a stored result names. */
  engineVersion?: string;
}

/** A PreflightResult without what only the service knows: `ok` and the account-scoped `audit_id`. */
export interface PreflightEvaluation {
  decision: Decision;
  decision_scope: typeof DECISION_SCOPE;
  meaning: string;
  server_name: string;
  policy: { id: PolicyId; revision: 1; digest: Digest };
  reasons: PreflightReason[];
  facts: Facts;
  facts_digest: Digest;
  decision_input_digest: Digest;
  engine_version: string;
  evaluated_at: string;
  valid_until: string;
  audit_signed: false;
  limitations: string[];
}

/** Every rule, in the fixed order of DESIGN §5 (see ruleset.ts), with whether its evidence is required. */
export function runRules(facts: Facts, policy: PreflightPolicy, now: Date): RuleOutcome[] {
  const ctx = ruleContext(facts, policy, now);
  const out: RuleOutcome[] = [
    identityFirstParty(ctx),
    brandImpersonation(ctx),
    brandClaimWithoutIdentity(ctx),
    registryListingStatus(ctx),
    repoGone(ctx),
    repoArchived(ctx),
    repoNoPush6mo(ctx),
  ];
  for (const pkg of facts.packages) out.push(...packageRules(ctx, pkg));
  for (const remote of facts.remotes) out.push(remoteLiveness(ctx, remote));
  out.push(lookalikeNames(ctx), ...repoStars(ctx));
  return out;
}

/**
 * The decision body for one server under one policy at one instant. Pure: the same facts, policy, time and
 * engine version give the same result, byte for byte, on any machine. `facts` is returned as given (the
 * caller builds it; lib/engine/facts.ts has the schema that checks it).
 */
export function evaluate({ facts, policy, now, engineVersion = ENGINE_VERSION }: EvaluateInput): PreflightEvaluation {
  const nowMs = now.getTime();
  if (Number.isNaN(nowMs)) throw new RangeError("evaluate: `now` is not a valid date");
  if (facts.schema_version !== 1) throw new RangeError(`evaluate: unsupported facts schema_version ${String(facts.schema_version)}`);

  const outcomes = runRules(facts, policy, now);
  const decision = decide(outcomes, policy);
  const reasons = outcomes.map((o) => o.reason);
  const evaluated_at = now.toISOString();
  const policy_digest = policyDigest(policy);
  const facts_digest = factsDigest(facts);

  return {
    decision,
    decision_scope: DECISION_SCOPE,
    meaning: DECISION_MEANINGS[decision],
    server_name: facts.server.name,
    policy: { id: policy.id, revision: policy.revision, digest: policy_digest },
    reasons,
    facts,
    facts_digest,
    decision_input_digest: decisionInputDigest({
      engine_version: engineVersion,
      policy_digest,
      facts_digest,
      as_of: evaluated_at,
    }),
    engine_version: engineVersion,
    evaluated_at,
    valid_until: new Date(computeValidUntil(reasons, policy, nowMs)).toISOString(),
    audit_signed: false,
    limitations: buildLimitations(facts, policy),
  };
}
