import type { Facts } from "../facts";
import type { PreflightPolicy } from "../policies";
import type { PreflightEvidence, PreflightReason } from "../types";

/** Everything a rule may look at: the facts, the policy, and the evaluation time. Nothing else. */
export interface RuleContext {
  facts: Facts;
  policy: PreflightPolicy;
  now: Date;
  nowMs: number;
}

/**
 * A rule's answer: the reason it contributes, and whether its evidence is required evidence under the policy
 * (an `unknown` required reason takes the policy's unknown_required outcome; see decision.ts).
 */
export interface RuleOutcome {
  reason: PreflightReason;
  required: boolean;
}

export function ruleContext(facts: Facts, policy: PreflightPolicy, now: Date): RuleContext {
  return { facts, policy, now, nowMs: now.getTime() };
}

/** Milliseconds since the epoch of an ISO time, or null when absent or unreadable (then it is unknown). */
export function timeMs(iso: string | null | undefined): number | null {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : t;
}

/** Evidence `url` is a URI or null in the contract; a listing's malformed address is kept in `value` instead. */
export function uriOrNull(s: string | null | undefined): string | null {
  if (!s) return null;
  let ok = parsable.get(s);
  if (ok === undefined) {
    ok = URL.canParse(s);
    if (parsable.size >= PARSABLE_MAX) parsable.clear();
    parsable.set(s, ok);
  }
  return ok ? s : null;
}

// Whether an address parses, remembered: one evaluation cites the same listing and repository addresses in
// several rules, and URL parsing was about 8% of an evaluation (bench/preflight-engine). Bounded; a pure memo.
const PARSABLE_MAX = 4096;
const parsable = new Map<string, boolean>();

export function listingEvidence(facts: Facts, value: unknown): PreflightEvidence {
  return {
    source: "registry",
    url: uriOrNull(facts.server.listing_url),
    value,
    observed_at: facts.server.listing_observed_at,
    attempted_at: facts.server.listing_observed_at,
    freshness_enforced: false,
  };
}

/**
 * Every reason cites at least one evidence item with a time. When the rule's own evidence was never observed
 * nor attempted, the registry listing that names the artifact is cited as the attempt context.
 */
export function withAttemptContext(facts: Facts, evidence: PreflightEvidence[], value: unknown): PreflightEvidence[] {
  if (evidence.some((e) => e.observed_at || e.attempted_at)) return evidence;
  return [...evidence, listingEvidence(facts, value)];
}

export function outcome(
  code: string,
  result: PreflightReason["result"],
  summary: string,
  evidence: PreflightEvidence[],
  required: boolean,
  artifact?: { ecosystem?: string; artifact_id?: string },
): RuleOutcome {
  // members in the answer's order (code, result, summary, ecosystem?, artifact_id?, evidence); assigned rather
  // than spread, which allocated two objects per reason
  const reason = { code, result, summary } as PreflightReason;
  if (artifact?.ecosystem !== undefined) reason.ecosystem = artifact.ecosystem;
  if (artifact?.artifact_id !== undefined) reason.artifact_id = artifact.artifact_id;
  reason.evidence = evidence;
  return { reason, required };
}

/** "not yet observed" or "not observed (last attempt …)", for summaries of unknown facts. */
export function notObservedPhrase(attemptedAt: string | null): string {
  return attemptedAt ? `was not observed (last attempt ${attemptedAt})` : "has not yet been observed";
}
