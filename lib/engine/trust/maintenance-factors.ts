import { ageDays, met, partial, unknown, unmet, when, type FactorSpec } from "./trust-factor";

export const registryListing: FactorSpec = {
  factor: "registry_listing",
  pillar: "maintenance",
  max: 5,
  measures: "the registry lists the latest version as active",
  score(facts) {
    const { registry_status: status, listing_observed_at: at } = facts.server;
    if (status === "active") return met(5, `registry: listing status active (observed ${at})`);
    if (status === null) return unknown(`the registry did not report a status (observed ${at})`);
    return unmet(`registry: listing status ${status} (observed ${at})`);
  },
};

export const repositoryLive: FactorSpec = {
  factor: "repository_live",
  pillar: "maintenance",
  max: 10,
  measures: "the listed repository exists (5) and is not archived (5)",
  score(facts) {
    const repo = facts.repository;
    // DESIGN §5: a server listing no repository has it unknown (not absent), as the other repository factors say
    if (!repo) return unknown("the listing names no repository, so whether one exists is unknown");
    const seen = when(repo.observed_at, repo.attempted_at);
    if (repo.exists === null) return unknown(`repository ${repo.url} ${seen}`);
    if (repo.exists === false) return unmet(`repo: ${repo.url} does not exist (${seen})`);
    if (repo.archived === false) return met(10, `repo: ${repo.url} exists and is not archived (${seen})`);
    if (repo.archived === true) return partial(5, `repo: ${repo.url} exists but is archived (${seen})`);
    return partial(5, `repo: ${repo.url} exists (${seen}); whether it is archived is unknown`);
  },
};

/** Full points for a push in the last 90 days, half within the 183 days of repo_no_push_6mo. */
export const RECENT_PUSH_DAYS = 90;
export const STALE_PUSH_DAYS = 183;

export const recentPush: FactorSpec = {
  factor: "recent_push",
  pillar: "maintenance",
  max: 10,
  measures: `last push to the repository: within ${RECENT_PUSH_DAYS} days 10, within ${STALE_PUSH_DAYS} days 5`,
  score(facts, now) {
    const repo = facts.repository;
    if (!repo) return unknown("the listing names no repository, so its activity is unknown");
    const seen = when(repo.observed_at, repo.attempted_at);
    if (repo.exists === false) return unmet(`repo: ${repo.url} does not exist (${seen})`);
    const days = ageDays(repo.pushed_at, now);
    if (days === null) return unknown(`the last push to ${repo.url} (${seen})`);
    const d = Math.max(0, Math.floor(days));
    const text = `repo: last push ${repo.pushed_at}, ${d} ${d === 1 ? "day" : "days"} ago (${seen})`;
    if (days <= RECENT_PUSH_DAYS) return met(10, text);
    if (days <= STALE_PUSH_DAYS) return partial(5, text);
    return unmet(text);
  },
};

export const MAINTENANCE_FACTORS = [registryListing, repositoryLive, recentPush];
