import { and, eq, sql } from "drizzle-orm";
import { serverPackages, vulnObservations } from "@/lib/db/schema";
import { pinnedVersion } from "./listed-version-exists";

/**
 * Join condition from a listed package to the vulnerability look-up of the version that listing names
 * (`""` when it names none). Servers may list different versions of one package; each has its own row.
 */
export const vulnOfListedVersion = and(
  eq(vulnObservations.ecosystem, serverPackages.ecosystem),
  eq(vulnObservations.identifier, serverPackages.identifier),
  eq(vulnObservations.listedVersion, sql`coalesce(${serverPackages.version}, '')`),
);

/**
 * Whether a look-up answers for the version the listing runs: the pinned one, or (unpinned: none listed, or a
 * tag such as `latest`) the registry's latest version, when that is still the version that was looked up.
 * Otherwise the advisories are unknown.
 */
export function advisoriesAreCurrent(
  listedVersion: string | null,
  lookup: { advisories: unknown; queriedVersion: string | null } | null,
  latestVersion: string | null,
): boolean {
  if (!lookup || lookup.advisories === null || lookup.advisories === undefined) return false;
  return pinnedVersion(listedVersion) !== null || lookup.queriedVersion === latestVersion;
}
