import type { RemoteFacts } from "../facts";
import { maxLivenessAgeMs, requiredFailureOutcome } from "../policies";
import { outcome, timeMs, uriOrNull, withAttemptContext, type RuleContext, type RuleOutcome } from "./rule-context";

function observation(remote: RemoteFacts): string {
  if (remote.observed_at === null) {
    return remote.attempted_at
      ? `has no liveness observation (last attempt ${remote.attempted_at} got no answer)`
      : "has not yet been observed live or down";
  }
  const status = remote.http_status === null ? "" : `, HTTP ${remote.http_status}`;
  if (remote.live === true) return `answered live at ${remote.observed_at}${status}`;
  if (remote.live === false) return `was observed down at ${remote.observed_at}${status}`;
  return `was probed at ${remote.observed_at} without a liveness verdict${status}`;
}

/**
 * remote_liveness. Under observe_only the last observation is context. Under require_fresh_live each remote
 * needs a live observation no older than max_liveness_age_hours: a fresh live answer passes; none, an older
 * one, or one without a verdict is unknown (required); a fresh "down" is the unmet requirement and takes the
 * policy's unknown_required outcome (block under strict@1). Only under require_fresh_live is the evidence
 * freshness-enforced, which is what bounds valid_until.
 */
export function remoteLiveness(ctx: RuleContext, remote: RemoteFacts): RuleOutcome {
  const { policy } = ctx;
  const enforced = policy.hosted_liveness === "require_fresh_live";
  const evidence = withAttemptContext(
    ctx.facts,
    [
      {
        source: "liveness",
        url: uriOrNull(remote.url),
        value: { type: remote.type, live: remote.live, http_status: remote.http_status },
        observed_at: remote.observed_at,
        attempted_at: remote.attempted_at,
        freshness_enforced: enforced,
      },
    ],
    { remote_url: remote.url, type: remote.type },
  );
  const artifact = { artifact_id: remote.url };
  const subject = `The ${remote.type} remote ${remote.url}`;

  if (!enforced) {
    return outcome(
      "remote_liveness",
      "context",
      `${subject} ${observation(remote)}; ${policy.name} observes liveness without requiring it.`,
      evidence,
      false,
      artifact,
    );
  }

  const maxHours = maxLivenessAgeMs(policy) / 3_600_000;
  const at = timeMs(remote.observed_at);
  const fresh = at !== null && ctx.nowMs - at <= maxLivenessAgeMs(policy);
  if (fresh && remote.live === true) {
    return outcome(
      "remote_liveness",
      "pass",
      `${subject} ${observation(remote)}, within ${maxHours} hours of the evaluation.`,
      evidence,
      true,
      artifact,
    );
  }
  if (fresh && remote.live === false) {
    return outcome(
      "remote_liveness",
      requiredFailureOutcome(policy),
      `${subject} ${observation(remote)}; ${policy.name} requires it live.`,
      evidence,
      true,
      artifact,
    );
  }
  const why = at !== null && !fresh ? `, more than ${maxHours} hours before the evaluation` : "";
  return outcome(
    "remote_liveness",
    "unknown",
    `${subject} ${observation(remote)}${why}; ${policy.name} requires a live observation no older than ${maxHours} hours.`,
    evidence,
    true,
    artifact,
  );
}
