import { and, eq, inArray, sql } from "drizzle-orm";
import type { Queryable } from "@/lib/db/client";
import {
  packageObservations,
  remoteObservations,
  repositoryObservations,
  serverPackages,
  serverRemotes,
  servers,
  serverVersions,
  vulnObservations,
} from "@/lib/db/schema";
import { describedVersion, describedVersionFields } from "@/lib/facts/described-version";
import { advisoriesAreCurrent, vulnOfListedVersion } from "@/lib/facts/listed-advisories";
import { listedVersionDeprecated } from "@/lib/facts/listed-deprecation";
import { listedVersionExists } from "@/lib/facts/listed-version-exists";
import { repositoryExists } from "@/lib/facts/repository-exists";
import { computeServerState, type ServerState, type ServerStateInput } from "./server-state";

export const CHECKED_ECOSYSTEMS = ["jspkg", "pypkg"] as const;

export interface ServerEvidence {
  id: number;
  name: string;
  input: ServerStateInput;
  state: ServerState;
}

type VersionFacts = Record<string, { deprecated?: string | null; yanked?: boolean }>;

/**
 * The evidence behind health/verified for a set of servers, read from the
 * catalog and the latest observations in one pass (a few set queries), so the
 * harvester can compare a chunk's servers before and after it writes.
 */
export async function loadServerEvidence(q: Queryable, serverIds: number[]): Promise<Map<number, ServerEvidence>> {
  const out = new Map<number, ServerEvidence>();
  const ids = [...new Set(serverIds)];
  for (let i = 0; i < ids.length; i += 2000) await loadPart(q, ids.slice(i, i + 2000), out);
  return out;
}

async function loadPart(q: Queryable, ids: number[], out: Map<number, ServerEvidence>) {
  if (!ids.length) return;
  const described = describedVersion(q);
  const rows = await q
    .select({
      id: servers.id,
      name: servers.name,
      status: servers.registryStatus,
      delistedAt: servers.delistedAt,
      // the version whose listing names the packages and remotes, as the facts read it (lib/facts/described-version.ts)
      ...describedVersionFields(described),
      repositoryId: servers.repositoryId,
      exists: repositoryObservations.exists,
      disabled: repositoryObservations.disabled,
      archived: repositoryObservations.archived,
    })
    .from(servers)
    .leftJoin(serverVersions, eq(serverVersions.id, servers.latestVersionId))
    .leftJoinLateral(described, sql`true`)
    .leftJoin(repositoryObservations, eq(repositoryObservations.repositoryId, servers.repositoryId))
    .where(inArray(servers.id, ids));
  const versionIds = rows.flatMap((r) => (r.versionId ? [r.versionId] : []));
  const pkgs = versionIds.length
    ? await q
        .select({
          versionId: serverPackages.versionId,
          ecosystem: serverPackages.ecosystem,
          identifier: serverPackages.identifier,
          version: serverPackages.version,
          exists: packageObservations.exists,
          latestVersion: packageObservations.latestVersion,
          deprecated: packageObservations.deprecated,
          versions: packageObservations.versions,
          observedAt: packageObservations.observedAt,
          advisories: vulnObservations.advisories,
          queriedVersion: vulnObservations.queriedVersion,
        })
        .from(serverPackages)
        .leftJoin(
          packageObservations,
          and(eq(packageObservations.ecosystem, serverPackages.ecosystem), eq(packageObservations.identifier, serverPackages.identifier)),
        )
        .leftJoin(vulnObservations, vulnOfListedVersion)
        .where(and(inArray(serverPackages.versionId, versionIds), inArray(serverPackages.ecosystem, [...CHECKED_ECOSYSTEMS])))
        .orderBy(serverPackages.versionId, serverPackages.position)
    : [];
  const remotes = versionIds.length
    ? await q
        .select({ versionId: serverRemotes.versionId, url: serverRemotes.url, live: remoteObservations.live, httpStatus: remoteObservations.httpStatus })
        .from(serverRemotes)
        .leftJoin(remoteObservations, eq(remoteObservations.url, serverRemotes.url))
        .where(inArray(serverRemotes.versionId, versionIds))
        .orderBy(serverRemotes.versionId, serverRemotes.position)
    : [];

  const pkgsByVersion = groupBy(pkgs, (p) => p.versionId);
  const remotesByVersion = groupBy(remotes, (r) => r.versionId);
  for (const r of rows) {
    const input: ServerStateInput = {
      registryStatus: r.status,
      listed: r.delistedAt === null,
      repository: r.repositoryId === null ? null : { exists: repositoryExists(r), archived: r.archived ?? null },
      packages: (r.versionId ? (pkgsByVersion.get(r.versionId) ?? []) : []).map((p) => {
        const versions = (p.versions ?? {}) as VersionFacts;
        const observed = p.observedAt !== null && p.exists === true;
        const v = p.version ?? p.latestVersion;
        const vf = v ? versions[v] : undefined;
        const advisoriesCurrent = advisoriesAreCurrent(p.version, p, p.latestVersion);
        return {
          ecosystem: p.ecosystem,
          identifier: p.identifier,
          version: p.version,
          exists: listedVersionExists(p, p.ecosystem, p.version, r.listedAt),
          deprecated: listedVersionDeprecated(p, p.version, p.ecosystem),
          yanked: !observed ? null : vf ? Boolean(vf.yanked) : null,
          advisories: advisoriesCurrent ? (p.advisories as { id: string; severity: string | null }[]) : null,
        };
      }),
      remotes: (r.versionId ? (remotesByVersion.get(r.versionId) ?? []) : []).map((x) => ({ url: x.url, live: x.live ?? null, httpStatus: x.httpStatus ?? null })),
    };
    out.set(r.id, { id: r.id, name: r.name, input, state: computeServerState(input) });
  }
}

function groupBy<T, K>(xs: T[], key: (x: T) => K): Map<K, T[]> {
  const m = new Map<K, T[]>();
  for (const x of xs) {
    const k = key(x);
    const list = m.get(k);
    if (list) list.push(x);
    else m.set(k, [x]);
  }
  return m;
}
