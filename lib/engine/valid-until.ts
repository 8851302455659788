import { maxLivenessAgeMs, type PreflightPolicy } from "./policies";
import type { PreflightReason } from "./types";

/** A result never outlives a day, even when nothing in it is freshness-enforced. */
export const MAX_VALIDITY_MS = 24 * 3_600_000;

/**
 * DESIGN §5: the earlier of evaluated_at + 24 h and the oldest freshness-enforced observation + the policy's
 * liveness age bound. Only observations whose window is still open at evaluation time count: a stale one was
 * not relied on (its reason is unknown), and counting it would put valid_until before evaluated_at.
 * Computed from the reasons' evidence, so it can be checked against the result alone.
 */
export function computeValidUntil(reasons: readonly PreflightReason[], policy: PreflightPolicy, nowMs: number): number {
  const window = maxLivenessAgeMs(policy);
  let until = nowMs + MAX_VALIDITY_MS;
  for (const reason of reasons) {
    for (const e of reason.evidence) {
      if (!e.freshness_enforced || !e.observed_at) continue;
      const closes = Date.parse(e.observed_at) + window;
      if (closes >= nowMs && closes < until) until = closes;
    }
  }
  return until;
}
