// The three immutable built-in policies of DESIGN §4. A policy never changes once published: a different
// rule set would be a new revision with a new name (`…@2`) and a new digest.

export const POLICY_IDS = ["builtin:baseline", "builtin:first-party", "builtin:strict"] as const;
export type PolicyId = (typeof POLICY_IDS)[number];

export const DEFAULT_POLICY_ID: PolicyId = "builtin:baseline";

export const RULESET_ID = "preflight-ruleset" as const;
export const RULESET_REVISION = 1 as const;
export const MAX_LIVENESS_AGE_HOURS = 48 as const;

/** Finding keys and their fixed outcomes, as the contract lists them. */
export const FINDING_OUTCOMES = {
  brand_impersonation: "block",
  brand_claim_without_identity: "review",
  repo_gone: "block",
  repo_archived: "review",
  jspkg_package_missing: "block",
  pypkg_package_missing: "block",
  jspkg_deprecated: "block",
  repo_no_push_6mo: "review",
  vuln_package_advisory: "review",
} as const;

export type FindingKey = keyof typeof FINDING_OUTCOMES;
export type FindingOutcomes = typeof FINDING_OUTCOMES;
export const FINDING_KEYS = Object.keys(FINDING_OUTCOMES) as FindingKey[];

export type IdentityRequirement = "any" | "first_party";
export type HostedLiveness = "observe_only" | "require_fresh_live";
export type UnknownRequired = "review" | "block";

export interface PreflightPolicy {
  schema_version: 1;
  id: PolicyId;
  revision: 1;
  ruleset_id: typeof RULESET_ID;
  ruleset_revision: typeof RULESET_REVISION;
  name: "baseline@1" | "first-party@1" | "strict@1";
  identity_requirement: IdentityRequirement;
  hosted_liveness: HostedLiveness;
  max_liveness_age_hours?: typeof MAX_LIVENESS_AGE_HOURS;
  unknown_required: UnknownRequired;
  findings: FindingOutcomes;
}

function policy(
  id: PolicyId,
  name: PreflightPolicy["name"],
  identity_requirement: IdentityRequirement,
  hosted_liveness: HostedLiveness,
  unknown_required: UnknownRequired,
): Readonly<PreflightPolicy> {
  return Object.freeze({
    schema_version: 1,
    id,
    revision: 1,
    ruleset_id: RULESET_ID,
    ruleset_revision: RULESET_REVISION,
    name,
    identity_requirement,
    hosted_liveness,
    max_liveness_age_hours: MAX_LIVENESS_AGE_HOURS,
    unknown_required,
    findings: Object.freeze({ ...FINDING_OUTCOMES }),
  });
}

export const BASELINE_POLICY = policy("builtin:baseline", "baseline@1", "any", "observe_only", "review");
export const FIRST_PARTY_POLICY = policy("builtin:first-party", "first-party@1", "first_party", "observe_only", "review");
export const STRICT_POLICY = policy("builtin:strict", "strict@1", "first_party", "require_fresh_live", "block");

/** In the order of DESIGN §4's table, which is also the order of the policy catalog. */
export const POLICIES: readonly Readonly<PreflightPolicy>[] = Object.freeze([BASELINE_POLICY, FIRST_PARTY_POLICY, STRICT_POLICY]);

const BY_ID: ReadonlyMap<string, Readonly<PreflightPolicy>> = new Map(POLICIES.map((p) => [p.id, p]));

export function isPolicyId(id: unknown): id is PolicyId {
  return typeof id === "string" && BY_ID.has(id);
}

/** The built-in policy with this id, or undefined for any other string. */
export function getPolicy(id: string): Readonly<PreflightPolicy> | undefined {
  return BY_ID.get(id);
}

/** The liveness age bound of a policy, in milliseconds (48 h for every revision-1 policy). */
export function maxLivenessAgeMs(policy: PreflightPolicy): number {
  return (policy.max_liveness_age_hours ?? MAX_LIVENESS_AGE_HOURS) * 3_600_000;
}

/**
 * What a required fact that is unknown, or a requirement the facts show unmet (first-party identity that is
 * false, a remote observed down under require_fresh_live), turns into. DESIGN §4 gives each policy one
 * `unknown_required` value; we use the same value for an explicitly unmet requirement, so first-party@1 asks
 * for REVIEW and strict@1 fails closed with BLOCK. Baseline has no such requirement of its own.
 */
export function requiredFailureOutcome(policy: PreflightPolicy): "review" | "block" {
  return policy.unknown_required;
}
