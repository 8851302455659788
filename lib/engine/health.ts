import { CHECKED_PACKAGE_ECOSYSTEMS, type Facts } from "./facts";

// Health of one server (DESIGN §6, contract HealthCard): what public evidence says is broken.
// Pure: facts in, answer out; `now` is part of the signature so that time-bound problems can be added
// without changing callers, and no problem depends on it today.

export const HEALTH_VALUES = ["healthy", "issues", "unknown"] as const;
export type Health = (typeof HEALTH_VALUES)[number];

/**
 * Problem identifiers (a card lists them sorted). `<ecosystem>_package_missing` and
 * `<ecosystem>_deprecated` take the package's ecosystem word (jspkg, pypkg).
 */
export const HEALTH_PROBLEMS = [
  "repo_gone",
  "repo_archived",
  "jspkg_package_missing",
  "pypkg_package_missing",
  "jspkg_deprecated",
  "pypkg_deprecated",
  "vuln_package_advisory",
  "remote_down",
] as const;
export type HealthProblem = (typeof HEALTH_PROBLEMS)[number];

export interface HealthResult {
  health: Health;
  /** Sorted alphabetically, each at most once. */
  problems: HealthProblem[];
}

const isChecked = (ecosystem: string) => (CHECKED_PACKAGE_ECOSYSTEMS as readonly string[]).includes(ecosystem);

/**
 * - `issues` when any problem is observed: the repository is gone or archived, a jspkg/pypkg package is
 *   missing or its listed version deprecated, an advisory affects a listed package version, or a remote's
 *   last liveness observation was down;
 * - `healthy` when none is and the core evidence is known: the listed repository was observed, and every
 *   jspkg/pypkg package was observed and looked up in the vulnerability database (a server that lists no
 *   repository never has its core evidence known);
 * - `unknown` otherwise. Unknown is not a guess: nothing bad was seen, and not enough was seen to say so.
 *
 * Remotes that were never probed do not make a server unknown: hosted liveness is observed, not required.
 */
export function computeHealth(facts: Facts, now: Date): HealthResult {
  void now;
  const problems = new Set<HealthProblem>();
  let coreKnown = true;

  const repo = facts.repository;
  if (!repo) coreKnown = false;
  else {
    if (repo.exists === false) problems.add("repo_gone");
    else if (repo.exists === null) coreKnown = false;
    if (repo.exists !== false && repo.archived === true) problems.add("repo_archived");
  }

  for (const p of facts.packages) {
    if (!isChecked(p.ecosystem)) continue;
    const eco = p.ecosystem as "jspkg" | "pypkg";
    if (p.exists === false) {
      problems.add(`${eco}_package_missing`);
      continue;
    }
    if (p.exists === null) coreKnown = false;
    if (p.deprecated === true) problems.add(`${eco}_deprecated`);
    if (p.advisories === null) coreKnown = false;
    else if (p.advisories.length > 0) problems.add("vuln_package_advisory");
  }

  for (const r of facts.remotes) if (r.live === false) problems.add("remote_down");

  const sorted = [...problems].sort();
  return { health: sorted.length ? "issues" : coreKnown ? "healthy" : "unknown", problems: sorted };
}
