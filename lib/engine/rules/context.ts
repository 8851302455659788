import { listingEvidence, outcome, uriOrNull, withAttemptContext, type RuleContext, type RuleOutcome } from "./rule-context";

const SUMMARY_NAME_LIMIT = 5;

/** lookalike_names: other servers with the same name part under another namespace, as context. */
export function lookalikeNames(ctx: RuleContext): RuleOutcome {
  const { name } = ctx.facts.server;
  const part = name.slice(name.indexOf("/") + 1);
  const { count, names } = ctx.facts.lookalikes;
  const evidence = [{ ...listingEvidence(ctx.facts, { count, names }), source: "catalog" }];
  if (count === 0) {
    return outcome(
      "lookalike_names",
      "context",
      `No other catalog server uses the name part ${part} under another namespace.`,
      evidence,
      false,
    );
  }
  const listed = names.slice(0, SUMMARY_NAME_LIMIT);
  const shown = listed.join(", ");
  // `names` holds at most LOOKALIKE_NAMES_LIMIT of them; `count` is the full number
  const more = count > listed.length ? ` and ${count - listed.length} more` : "";
  return outcome(
    "lookalike_names",
    "context",
    `${count === 1 ? "1 other catalog server uses" : `${count} other catalog servers use`} the name part ${part}${shown ? `: ${shown}${more}` : ""}; make sure ${name} is the one you mean.`,
    evidence,
    false,
  );
}

/** repo_stars: popularity as context, only when the repository was observed and reported a count. */
export function repoStars(ctx: RuleContext): RuleOutcome[] {
  const repo = ctx.facts.repository;
  if (!repo || repo.exists !== true || repo.stars === null) return [];
  return [
    outcome(
      "repo_stars",
      "context",
      `The repository ${repo.url} has ${repo.stars} ${repo.stars === 1 ? "star" : "stars"}; popularity is not evidence of safety.`,
      withAttemptContext(
        ctx.facts,
        [
          {
            source: "repo",
            url: uriOrNull(repo.url),
            value: { stars: repo.stars },
            observed_at: repo.observed_at,
            attempted_at: repo.attempted_at,
            freshness_enforced: false,
          },
        ],
        { repository_url: repo.url },
      ),
      false,
    ),
  ];
}
