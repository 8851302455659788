import { and, desc, eq, isNull, ne, sql } from "drizzle-orm";
import type { Queryable } from "@/lib/db/client";
import {
  packageObservations,
  registrySyncs,
  remoteObservations,
  repositories,
  repositoryObservations,
  serverPackages,
  serverRemotes,
  servers,
} from "@/lib/db/schema";
import { registryUrl } from "@/lib/config";
import { FACTS_SCHEMA_VERSION, type Facts } from "@/lib/engine/facts";
import { deriveIdentity } from "./derive-identity";
import { packagePageUrl } from "./package-page-url";
import { findBrandClaims } from "./brand-claims";

const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

/** What a delisted server's listing status reads as: it was absent from a complete listing. */
export const DELISTED_STATUS = "delisted";

/**
 * The facts of DESIGN §5 for one exact canonical name, from the catalog and the
 * latest stored observations; null when the name is not in the catalog. A value
 * never observed is null and stays null.
 */
export async function loadFacts(db: Queryable, name: string): Promise<Facts | null> {
  const [row] = await db
    .select({
      server: servers,
      repo: repositories,
      obs: repositoryObservations,
    })
    .from(servers)
    .leftJoin(repositories, eq(repositories.id, servers.repositoryId))
    .leftJoin(repositoryObservations, eq(repositoryObservations.repositoryId, servers.repositoryId))
    .where(eq(servers.name, name))
    .limit(1);
  if (!row) return null;
  const s = row.server;

  const [packages, remotes, lookalikes, sync, brandClaims] = await Promise.all([
    s.latestVersionId === null
      ? []
      : db
          .select({ pkg: serverPackages, obs: packageObservations })
          .from(serverPackages)
          .leftJoin(
            packageObservations,
            and(eq(packageObservations.ecosystem, serverPackages.ecosystem), eq(packageObservations.identifier, serverPackages.identifier)),
          )
          .where(eq(serverPackages.versionId, s.latestVersionId))
          .orderBy(serverPackages.position),
    s.latestVersionId === null
      ? []
      : db
          .select({ remote: serverRemotes, obs: remoteObservations })
          .from(serverRemotes)
          .leftJoin(remoteObservations, eq(remoteObservations.url, serverRemotes.url))
          .where(eq(serverRemotes.versionId, s.latestVersionId))
          .orderBy(serverRemotes.position),
    db
      .select({ name: servers.name })
      .from(servers)
      .where(and(sql`lower(${servers.serverPart}) = lower(${s.serverPart})`, ne(servers.id, s.id), isNull(servers.delistedAt)))
      .orderBy(servers.name)
      .limit(50),
    db
      .select({ observedAt: registrySyncs.observedAt })
      .from(registrySyncs)
      .where(eq(registrySyncs.status, "succeeded"))
      .orderBy(desc(registrySyncs.id))
      .limit(1),
    findBrandClaims(db, { name: s.name, namespace: s.namespace, title: s.title, description: s.description }),
  ]);

  const repo = row.repo;
  const obs = row.obs;
  const identity = deriveIdentity({
    namespace: s.namespace,
    repository: repo ? { host: repo.host, owner: repo.owner } : null,
    remoteUrls: remotes.map((r) => r.remote.url),
  });
  // A delisted server was last seen listed before the complete listing that lacked it.
  const listingObservedAt = s.delistedAt ?? sync[0]?.observedAt ?? s.updatedAt;

  return {
    schema_version: FACTS_SCHEMA_VERSION,
    server: {
      name: s.name,
      namespace: s.namespace,
      namespace_verification: identity.namespace_verification,
      registry_status: s.delistedAt ? DELISTED_STATUS : s.registryStatus,
      version: s.latestVersion,
      spec_era: s.specEra,
      first_seen_at: iso(s.firstSeenAt),
      listing_observed_at: listingObservedAt.toISOString(),
      listing_url: `${registryUrl()}/v0.1/servers/${encodeURIComponent(s.name)}/versions/latest`,
    },
    identity: { first_party: identity.first_party, basis: identity.basis, brand_claims: brandClaims },
    repository: repo
      ? {
          url: repo.url,
          host: repo.host,
          owner: repo.owner,
          name: repo.name,
          exists: obs?.exists ?? null,
          archived: obs?.archived ?? null,
          pushed_at: iso(obs?.pushedAt),
          stars: obs?.stars ?? null,
          observed_at: iso(obs?.observedAt),
          attempted_at: iso(obs?.attemptedAt),
        }
      : null,
    packages: packages.map(({ pkg, obs: o }) => ({
      ecosystem: pkg.ecosystem,
      identifier: pkg.identifier,
      version: pkg.version,
      url: packagePageUrl(pkg.ecosystem, pkg.identifier),
      exists: o?.exists ?? null,
      deprecated: deprecationOf(o, pkg.version),
      advisories:
        o?.advisories && (o.advisoriesVersion ?? null) === (pkg.version ?? null)
          ? (o.advisories as { id: string; summary?: string | null; severity?: string | null }[]).map((a) => ({
              id: a.id,
              summary: a.summary ?? null,
              severity: a.severity ?? null,
            }))
          : null,
      observed_at: iso(o?.observedAt),
      attempted_at: iso(o?.attemptedAt),
      advisories_observed_at: o?.advisories && (o.advisoriesVersion ?? null) === (pkg.version ?? null) ? iso(o.advisoriesObservedAt) : null,
      advisories_attempted_at: iso(o?.advisoriesAttemptedAt),
    })),
    remotes: remotes.map(({ remote, obs: o }) => ({
      type: remote.type,
      url: remote.url,
      live: o?.live ?? null,
      http_status: o?.httpStatus ?? null,
      observed_at: iso(o?.observedAt),
      attempted_at: iso(o?.attemptedAt),
    })),
    lookalikes: { count: lookalikes.length, names: lookalikes.map((l) => l.name) },
  };
}

/**
 * Deprecation of the listed version: the per-version record when the registry
 * has one, else (no version listed) the latest version's; null when not observed.
 */
function deprecationOf(o: typeof packageObservations.$inferSelect | null, version: string | null): boolean | null {
  if (!o || o.exists === null || o.observedAt === null) return null;
  if (o.exists === false) return null;
  const versions = (o.versions ?? {}) as Record<string, { deprecated?: string | null }>;
  if (version && versions[version]) return Boolean(versions[version].deprecated);
  // No per-version record: only the latest version's deprecation is known.
  if (!version || version === o.latestVersion) return Boolean(o.deprecated);
  return null;
}
