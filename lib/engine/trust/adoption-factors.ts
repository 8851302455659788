import { ageDays, isCheckedEcosystem, met, partial, unknown, unmet, when, plural, type FactorSpec } from "./trust-factor";

/** Stars → points, highest threshold first (a log scale: each tenfold adds about three points). */
export const STAR_TIERS: ReadonlyArray<readonly [number, number]> = [
  [10_000, 15],
  [1_000, 12],
  [100, 9],
  [10, 6],
  [1, 3],
];

export const repoStars: FactorSpec = {
  factor: "repo_stars",
  pillar: "adoption",
  max: 15,
  measures: "repository stars: 1+ 3, 10+ 6, 100+ 9, 1,000+ 12, 10,000+ 15",
  score(facts) {
    const repo = facts.repository;
    if (!repo) return unknown("the listing names no repository, so its stars are unknown");
    const seen = when(repo.observed_at, repo.attempted_at);
    if (repo.exists === false) return unmet(`repo: ${repo.url} does not exist (${seen})`);
    if (repo.stars === null) return unknown(`the star count of ${repo.url} (${seen})`);
    const text = `repo: ${plural(repo.stars, "star")} (${seen})`;
    const tier = STAR_TIERS.find(([min]) => repo.stars! >= min);
    if (!tier) return unmet(text);
    return tier[1] === 15 ? met(15, text) : partial(tier[1], text);
  },
};

export const catalogTenure: FactorSpec = {
  factor: "catalog_tenure",
  pillar: "adoption",
  max: 5,
  measures: "time since the registry first listed the server: 180 days 5, 30 days 3",
  score(facts, now) {
    const first = facts.server.first_seen_at;
    const days = ageDays(first, now);
    if (days === null) return unknown("when the server was first listed");
    const d = Math.max(0, Math.floor(days));
    const text = `registry: first listed ${first}, ${d} ${d === 1 ? "day" : "days"} ago`;
    if (days >= 180) return met(5, text);
    if (days >= 30) return partial(3, text);
    return unmet(text);
  },
};

export const artifactsAvailable: FactorSpec = {
  factor: "artifacts_available",
  pillar: "adoption",
  max: 5,
  measures: "something people can use was observed: a jspkg/pypkg package that exists, or a remote that answered",
  score(facts) {
    const pkgs = facts.packages.filter((p) => isCheckedEcosystem(p.ecosystem));
    const livePkg = pkgs.find((p) => p.exists === true);
    if (livePkg) return met(5, `${livePkg.ecosystem}: ${livePkg.identifier} exists (${when(livePkg.observed_at, livePkg.attempted_at)})`);
    const liveRemote = facts.remotes.find((r) => r.live === true);
    if (liveRemote) return met(5, `liveness: ${liveRemote.url} answered (${when(liveRemote.observed_at, liveRemote.attempted_at)})`);
    const unobserved = pkgs.filter((p) => p.exists === null).length + facts.remotes.filter((r) => r.live === null).length;
    if (unobserved) return unknown(`${plural(unobserved, "package or remote", "packages or remotes")} not yet observed`);
    if (!pkgs.length && !facts.remotes.length) {
      const other = facts.packages.map((p) => p.ecosystem);
      return unknown(other.length ? `only ${[...new Set(other)].join(", ")} artifacts are listed, which are not looked up` : "the listing names no package and no remote");
    }
    // Name only what is listed: a server with no jspkg/pypkg package (or no remote) has none that is missing (or down).
    const missing = pkgs.map((p) => `${p.ecosystem}: ${p.identifier} does not exist (${when(p.observed_at, p.attempted_at)})`);
    const down = facts.remotes.map((r) => `liveness: ${r.url} was down (${when(r.observed_at, r.attempted_at)})`);
    return unmet([...missing, ...down].join("; "));
  },
};

export const ADOPTION_FACTORS = [repoStars, catalogTenure, artifactsAvailable];
