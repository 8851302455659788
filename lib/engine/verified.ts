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
