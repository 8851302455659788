import type { RepositoryFacts } from "../facts";
import type { PreflightEvidence } from "../types";
import {
  listingEvidence,
  notObservedPhrase,
  outcome,
  timeMs,
  uriOrNull,
  withAttemptContext,
  type RuleContext,
  type RuleOutcome,
} from "./rule-context";

/** "Six months" of repo_no_push_6mo, as a fixed number of days so that every machine agrees. */
export const NO_PUSH_WINDOW_DAYS = 183;
const DAY_MS = 86_400_000;

function repoEvidence(ctx: RuleContext, repo: RepositoryFacts, value: unknown): PreflightEvidence[] {
  return withAttemptContext(
    ctx.facts,
    [
      {
        source: "repo",
        url: uriOrNull(repo.url),
        value,
        observed_at: repo.observed_at,
        attempted_at: repo.attempted_at,
        freshness_enforced: false,
      },
    ],
    { repository_url: repo.url },
  );
}

const observed = (at: string | null) => (at ? ` (observed ${at})` : "");

const noRepositoryEvidence = (ctx: RuleContext) => [listingEvidence(ctx.facts, { repository: null })];

/**
 * Shared preamble of the archived and activity rules: with no repository, a repository that is gone, or one
 * whose presence is unknown, they have nothing of their own to say (repo_gone carries the required evidence).
 */
function dependentOnPresence(ctx: RuleContext, code: string, what: string): RuleOutcome | null {
  const repo = ctx.facts.repository;
  if (repo === null) {
    return outcome(code, "unknown", `The listing names no repository, so its ${what} is unknown.`, noRepositoryEvidence(ctx), false);
  }
  if (repo.exists === false) {
    return outcome(
      code,
      "not_applicable",
      `The repository ${repo.url} does not exist, so its ${what} does not apply.`,
      repoEvidence(ctx, repo, { exists: false }),
      false,
    );
  }
  if (repo.exists === null) {
    return outcome(
      code,
      "unknown",
      `The repository ${repo.url} ${notObservedPhrase(repo.attempted_at)}, so its ${what} is unknown.`,
      repoEvidence(ctx, repo, { exists: null }),
      false,
    );
  }
  return null;
}

/** repo_gone: the repository the listing names exists. No repository listed is required evidence missing. */
export function repoGone(ctx: RuleContext): RuleOutcome {
  const repo = ctx.facts.repository;
  const p = ctx.policy.name;
  if (repo === null) {
    return outcome(
      "repo_gone",
      "unknown",
      `The listing names no repository; repository evidence is required under ${p}.`,
      noRepositoryEvidence(ctx),
      true,
    );
  }
  const evidence = repoEvidence(ctx, repo, { exists: repo.exists });
  if (repo.exists === true) {
    return outcome("repo_gone", "pass", `The repository ${repo.url} exists${observed(repo.observed_at)}.`, evidence, true);
  }
  if (repo.exists === false) {
    return outcome(
      "repo_gone",
      ctx.policy.findings.repo_gone,
      `The repository ${repo.url} that the listing names does not exist or is blocked by its host${observed(repo.observed_at)}.`,
      evidence,
      true,
    );
  }
  return outcome(
    "repo_gone",
    "unknown",
    `The repository ${repo.url} ${notObservedPhrase(repo.attempted_at)}; it is required evidence under ${p}.`,
    evidence,
    true,
  );
}

/** repo_archived: the repository is archived (read-only). */
export function repoArchived(ctx: RuleContext): RuleOutcome {
  const pre = dependentOnPresence(ctx, "repo_archived", "archive state");
  if (pre) return pre;
  const repo = ctx.facts.repository!;
  const evidence = repoEvidence(ctx, repo, { archived: repo.archived });
  if (repo.archived === true) {
    return outcome(
      "repo_archived",
      ctx.policy.findings.repo_archived,
      `The repository ${repo.url} is archived${observed(repo.observed_at)}.`,
      evidence,
      true,
    );
  }
  if (repo.archived === false) {
    return outcome("repo_archived", "pass", `The repository ${repo.url} is not archived${observed(repo.observed_at)}.`, evidence, true);
  }
  return outcome(
    "repo_archived",
    "unknown",
    `The archive state of ${repo.url} was not reported; it is required evidence under ${ctx.policy.name}.`,
    evidence,
    true,
  );
}

/** repo_no_push_6mo: the last push is more than NO_PUSH_WINDOW_DAYS before the evaluation time. */
export function repoNoPush6mo(ctx: RuleContext): RuleOutcome {
  const pre = dependentOnPresence(ctx, "repo_no_push_6mo", "activity");
  if (pre) return pre;
  const repo = ctx.facts.repository!;
  const evidence = repoEvidence(ctx, repo, { pushed_at: repo.pushed_at });
  const pushed = timeMs(repo.pushed_at);
  if (pushed === null) {
    return outcome(
      "repo_no_push_6mo",
      "unknown",
      `The last push to ${repo.url} was not reported; it is required evidence under ${ctx.policy.name}.`,
      evidence,
      true,
    );
  }
  const days = Math.floor((ctx.nowMs - pushed) / DAY_MS);
  if (ctx.nowMs - pushed > NO_PUSH_WINDOW_DAYS * DAY_MS) {
    return outcome(
      "repo_no_push_6mo",
      ctx.policy.findings.repo_no_push_6mo,
      `The last push to ${repo.url} was at ${repo.pushed_at}, ${days} days before the evaluation (more than ${NO_PUSH_WINDOW_DAYS}).`,
      evidence,
      true,
    );
  }
  return outcome(
    "repo_no_push_6mo",
    "pass",
    `The last push to ${repo.url} was at ${repo.pushed_at}, within ${NO_PUSH_WINDOW_DAYS} days of the evaluation.`,
    evidence,
    true,
  );
}
