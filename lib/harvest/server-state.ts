/**
 * health and verified of one server, as change detection needs them
 * (DESIGN §6, contract HealthCard). A pure function of the latest observations:
 *
 * - problems: repo_gone (the host answered gone/blocked), repo_archived,
 *   <eco>_package_missing (absent or unpublished), jspkg_deprecated (the listed
 *   version is deprecated), pypkg_yanked (the listed version is yanked),
 *   vuln_package_advisory (an advisory affects the listed version),
 *   remote_down (the last liveness observation was down).
 * - health: `issues` when any problem is observed; `healthy` when none is and
 *   the core evidence is known (the listed repository observed; every jspkg and
 *   pypkg package observed and its vulnerability look-up made); else `unknown`.
 *   A server listing no repository is never `healthy` (repo is unknown).
 * - verified: the listing is present and `active`, the repository exists and is
 *   not archived, and every listed jspkg/pypkg package exists (a server listing
 *   none has nothing to fail that clause). Unobserved evidence is not verified.
 */
export interface ServerStateInput {
  registryStatus: string | null;
  listed: boolean;
  /** null: the listing names no repository. */
  repository: { exists: boolean | null; archived: boolean | null } | null;
  /** Only the checked ecosystems (jspkg, pypkg). */
  packages: {
    ecosystem: string;
    identifier: string;
    version: string | null;
    exists: boolean | null;
    deprecated: boolean | null;
    yanked: boolean | null;
    /** null: not looked up for this version. */
    advisories: { id: string; severity: string | null }[] | null;
  }[];
  remotes: { url: string; live: boolean | null }[];
}

export type Health = "healthy" | "issues" | "unknown";

export interface ServerState {
  health: Health;
  problems: string[];
  verified: boolean;
}

export function computeServerState(s: ServerStateInput): ServerState {
  const problems = new Set<string>();
  let coreKnown = true;

  if (!s.repository) coreKnown = false;
  else {
    if (s.repository.exists === false) problems.add("repo_gone");
    else if (s.repository.exists === null) coreKnown = false;
    if (s.repository.archived === true) problems.add("repo_archived");
  }

  for (const p of s.packages) {
    if (p.exists === false) problems.add(`${p.ecosystem}_package_missing`);
    else if (p.exists === null) coreKnown = false;
    if (p.deprecated === true) problems.add(`${p.ecosystem}_deprecated`);
    if (p.yanked === true) problems.add(`${p.ecosystem}_yanked`);
    if (p.advisories && p.advisories.length) problems.add("vuln_package_advisory");
    else if (p.advisories === null && p.exists !== false) coreKnown = false;
  }

  for (const r of s.remotes) if (r.live === false) problems.add("remote_down");

  const health: Health = problems.size ? "issues" : coreKnown ? "healthy" : "unknown";
  const verified =
    s.listed &&
    s.registryStatus === "active" &&
    s.repository !== null &&
    s.repository.exists === true &&
    s.repository.archived === false &&
    s.packages.every((p) => p.exists === true);
  return { health, problems: [...problems].sort(), verified };
}
