/**
 * Whether the listed repository is there to use: a repository its host has disabled answers, but nobody can
 * read or clone it, so it counts as gone, as a 451-blocked one does (the observation keeps `disabled`).
 */
export function repositoryExists(obs: { exists: boolean | null; disabled: boolean | null } | null): boolean | null {
  if (!obs || obs.exists === null) return null;
  return obs.exists && obs.disabled !== true;
}
