import { CHECKED_PACKAGE_ECOSYSTEMS, type Facts } from "./facts";

/**
 * `verified` exactly as the contract defines it: a live repository that is not archived, live packages,
 * and an active registry listing. Each clause must be observed true; anything unobserved is not verified.
 *
 * - repository: the listing names one, the code host answered that it exists, and it is not archived;
 * - packages: every listed jspkg and pypkg package exists on its registry (a server listing none has no
 *   package to fail this clause; oci, nuget and mcpb artifacts are not looked up, so they neither count
 *   for nor against it);
 * - listing: the registry reports the latest version `active` and the name is still listed.
 *
 * It is not first-party identity, not a claim that the package publisher is the repository owner, and not
 * a security finding. `now` is part of the signature for symmetry with computeHealth; it is unused.
 */
export function computeVerified(facts: Facts, now: Date): boolean {
  void now;
  const repo = facts.repository;
  if (!repo || repo.exists !== true || repo.archived !== false) return false;
  if (facts.server.registry_status !== "active") return false;
  return facts.packages
    .filter((p) => (CHECKED_PACKAGE_ECOSYSTEMS as readonly string[]).includes(p.ecosystem))
    .every((p) => p.exists === true);
}

export const VERIFIED_STATUSES = ["verified", "not_verified", "unknown"] as const;
export type VerifiedStatus = (typeof VERIFIED_STATUSES)[number];

/** `facts` with the repository and jspkg/pypkg packages not observed yet taken as found live. */
function unobservedAsLive(facts: Facts): Facts {
  const repo = facts.repository;
  return {
    ...facts,
    repository: repo && { ...repo, exists: repo.exists ?? true, archived: repo.archived ?? false },
    packages: facts.packages.map((p) => ({ ...p, exists: p.exists ?? true })),
  };
}

/**
 * What `verified` rests on, in words a reader cannot mistake: the contract's `verified` is a boolean, so false is
 * both "a clause was observed to fail" and "evidence is not observed yet". `unknown` is the second: false only
 * because the repository or a jspkg/pypkg package was not observed yet, and true were it found live. A clause
 * observed to fail (no repository listed, gone, archived, a missing package, a listing that is not active) is
 * `not_verified` whatever else is still unobserved. Change detection uses the same test (verifiedPending in
 * lib/harvest/server-state.ts): a verified value that is unknown is not a state to report a change to.
 */
export function verifiedStatus(facts: Facts, now: Date): VerifiedStatus {
  if (computeVerified(facts, now)) return "verified";
  return computeVerified(unobservedAsLive(facts), now) ? "unknown" : "not_verified";
}
