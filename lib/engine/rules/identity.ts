import { requiredFailureOutcome } from "../policies";
import type { PreflightEvidence } from "../types";
import { outcome, type RuleContext, type RuleOutcome } from "./rule-context";

const VERIFIED_BY = { github: "GitHub", dns: "DNS" } as const;

function namespacePhrase(ctx: RuleContext): string {
  const { namespace, namespace_verification } = ctx.facts.server;
  return namespace_verification
    ? `namespace ${namespace} (verified by ${VERIFIED_BY[namespace_verification]})`
    : `namespace ${namespace} (verification not reported)`;
}

/**
 * identity_first_party. Under identity_requirement `any` it is context. Under `first_party` the identity is
 * required evidence: established → pass, not established (null) → unknown, shown not first party (false) →
 * the policy's unknown_required outcome, i.e. review under first-party@1 and block under strict@1 (the design
 * states only that strict fails closed; an explicit unmet requirement is treated like missing evidence).
 */
export function identityFirstParty(ctx: RuleContext): RuleOutcome {
  const { facts, policy } = ctx;
  const { first_party, basis } = facts.identity;
  const at = facts.server.listing_observed_at;
  const evidence: PreflightEvidence[] = [
    {
      source: "catalog",
      url: null,
      value: {
        namespace: facts.server.namespace,
        namespace_verification: facts.server.namespace_verification,
        first_party,
        basis,
      },
      observed_at: first_party === null ? null : at,
      attempted_at: at,
      freshness_enforced: false,
    },
  ];
  const ns = namespacePhrase(ctx);
  const state =
    first_party === true
      ? `the publisher is the first party (basis: ${basis ?? "not recorded"})`
      : first_party === false
        ? "the publisher is not the first party of what it serves"
        : "first-party identity is not established";

  if (policy.identity_requirement === "any") {
    return outcome(
      "identity_first_party",
      "context",
      `${policy.name} accepts any publisher; for ${ns} ${state}.`,
      evidence,
      false,
    );
  }
  if (first_party === true) {
    return outcome("identity_first_party", "pass", `For ${ns} ${state}, as ${policy.name} requires.`, evidence, true);
  }
  if (first_party === false) {
    return outcome(
      "identity_first_party",
      requiredFailureOutcome(policy),
      `For ${ns} ${state}; ${policy.name} requires first-party identity.`,
      evidence,
      true,
    );
  }
  return outcome(
    "identity_first_party",
    "unknown",
    `For ${ns} ${state}; it is required evidence under ${policy.name}.`,
    evidence,
    true,
  );
}
