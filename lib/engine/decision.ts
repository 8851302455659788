import type { PreflightPolicy } from "./policies";
import type { RuleOutcome } from "./rules/rule-context";
import type { Decision } from "./types";

/**
 * DESIGN §5: any block → BLOCK; else any review → REVIEW; a required fact that is unknown takes the policy's
 * unknown_required outcome; else PASS. `context`, `not_applicable` and unknowns that are not required never
 * change the decision.
 */
export function decide(outcomes: readonly RuleOutcome[], policy: PreflightPolicy): Decision {
  let block = false;
  let review = false;
  for (const { reason, required } of outcomes) {
    if (reason.result === "block") block = true;
    else if (reason.result === "review") review = true;
    else if (reason.result === "unknown" && required) {
      if (policy.unknown_required === "block") block = true;
      else review = true;
    }
  }
  return block ? "BLOCK" : review ? "REVIEW" : "PASS";
}

/** Fixed texts: the same decision always means the same thing, whatever the server or policy. */
export const DECISION_MEANINGS: Readonly<Record<Decision, string>> = Object.freeze({
  PASS:
    "Every rule of this exact policy revision passes on the facts in this result. PASS is not a security finding, not an install or execution authorization and not a sandbox: the server still needs your permission and code review before use.",
  REVIEW:
    "Human judgment or more current required evidence is needed: read the reasons marked review or unknown before connecting. This is not a security finding.",
  BLOCK:
    "A hard failure violates the policy, or the strict policy fails closed on required evidence: do not connect to or install this server on the basis of these facts.",
});

/** BLOCK < REVIEW < PASS: a lower rank is a worse decision. */
export const DECISION_RANK: Readonly<Record<Decision, number>> = Object.freeze({ BLOCK: 0, REVIEW: 1, PASS: 2 });
