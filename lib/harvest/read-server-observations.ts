import { and, eq, sql } from "drizzle-orm";
import type { Queryable } from "@/lib/db/client";
import { describedVersion, describedVersionFields } from "@/lib/facts/described-version";
import { advisoriesAreCurrent, vulnOfListedVersion } from "@/lib/facts/listed-advisories";
import {
  packageObservations,
  remoteObservations,
  repositories,
  repositoryObservations,
  serverPackages,
  serverRemotes,
  servers,
  serverVersions,
  vulnObservations,
  type PackageObservationRow,
  type RemoteObservationRow,
  type RepositoryObservationRow,
  type VulnObservationRow,
} from "@/lib/db/schema";
import { loadServerEvidence } from "./load-server-evidence";
import type { ServerState } from "./server-state";
import type { StoredAdvisory } from "./harvest-vulns";

export interface ServerObservations {
  server: { id: number; name: string; registryStatus: string | null; listed: boolean; latestVersion: string | null; specEra: string | null };
  /** null: the listing names no repository. observation null: never attempted. */
  repository: { id: number; url: string; host: string | null; owner: string | null; name: string | null; observation: RepositoryObservationRow | null } | null;
  packages: {
    ecosystem: string;
    identifier: string;
    /** As listed (null: unpinned). */
    version: string | null;
    observation: PackageObservationRow | null;
    /** The vulnerability look-up of this listed version (jspkg/pypkg only). */
    vuln: VulnObservationRow | null;
    /** Advisories affecting the version the listing runs; null when not (or not currently) looked up. */
    advisories: StoredAdvisory[] | null;
  }[];
  remotes: { type: string; url: string; observation: RemoteObservationRow | null }[];
  /** health, problems and verified as change detection computes them (server-state.ts). */
  state: ServerState;
}

/**
 * The latest stored observations behind one server (by exact name): its repository, each package of the version
 * that describes it (its latest, else lib/facts/described-version.ts) with the vulnerability look-up of the listed
 * version, each remote's liveness, and the derived health/verified. Every value never observed is null. null when
 * the name is not in the catalog.
 */
export async function readServerObservations(q: Queryable, name: string): Promise<ServerObservations | null> {
  const described = describedVersion(q);
  const [row] = await q
    // the version whose listing names the packages and remotes, as the facts read it
    .select({ server: servers, repo: repositories, obs: repositoryObservations, versionId: describedVersionFields(described).versionId })
    .from(servers)
    .leftJoin(serverVersions, eq(serverVersions.id, servers.latestVersionId))
    .leftJoinLateral(described, sql`true`)
    .leftJoin(repositories, eq(repositories.id, servers.repositoryId))
    .leftJoin(repositoryObservations, eq(repositoryObservations.repositoryId, servers.repositoryId))
    .where(eq(servers.name, name))
    .limit(1);
  if (!row) return null;
  const s = row.server;
  const versionId = row.versionId;
  const [pkgs, remotes, evidence] = await Promise.all([
    versionId === null
      ? []
      : q
          .select({ pkg: serverPackages, obs: packageObservations, vuln: vulnObservations })
          .from(serverPackages)
          .leftJoin(packageObservations, and(eq(packageObservations.ecosystem, serverPackages.ecosystem), eq(packageObservations.identifier, serverPackages.identifier)))
          .leftJoin(vulnObservations, vulnOfListedVersion)
          .where(eq(serverPackages.versionId, versionId))
          .orderBy(serverPackages.position),
    versionId === null
      ? []
      : q
          .select({ remote: serverRemotes, obs: remoteObservations })
          .from(serverRemotes)
          .leftJoin(remoteObservations, eq(remoteObservations.url, serverRemotes.url))
          .where(eq(serverRemotes.versionId, versionId))
          .orderBy(serverRemotes.position),
    loadServerEvidence(q, [s.id]),
  ]);
  return {
    server: { id: s.id, name: s.name, registryStatus: s.registryStatus, listed: s.delistedAt === null, latestVersion: s.latestVersion, specEra: s.specEra },
    repository: row.repo ? { id: row.repo.id, url: row.repo.url, host: row.repo.host, owner: row.repo.owner, name: row.repo.name, observation: row.obs } : null,
    packages: pkgs.map(({ pkg, obs, vuln }) => {
      const current = advisoriesAreCurrent(pkg.version, vuln, obs?.latestVersion ?? null);
      return {
        ecosystem: pkg.ecosystem,
        identifier: pkg.identifier,
        version: pkg.version,
        observation: obs,
        vuln,
        advisories: current ? (vuln!.advisories as StoredAdvisory[]) : null,
      };
    }),
    remotes: remotes.map(({ remote, obs }) => ({ type: remote.type, url: remote.url, observation: obs })),
    state: evidence.get(s.id)!.state,
  };
}
