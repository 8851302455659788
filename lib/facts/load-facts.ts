import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { listedVersionDeprecated } from "./listed-deprecation";
import { repositoryExists } from "./repository-exists";
import { describedVersion, describedVersionFields } from "./described-version";
import type { Queryable } from "@/lib/db/client";
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
} from "@/lib/db/schema";
import { registryUrl } from "@/lib/config";
import { latestListingObservedAt } from "@/lib/reports/catalog-times";
import { FACTS_SCHEMA_VERSION, type Facts } from "@/lib/engine/facts";
import { deriveIdentity } from "./derive-identity";
import { packagePageUrl } from "./package-page-url";
import { claimsOf, loadBrands } from "./brand-claims";
import { advisoriesAreCurrent, vulnOfListedVersion } from "./listed-advisories";
import { listedVersionExists } from "./listed-version-exists";

const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

/** What a delisted server's listing status reads as: it was absent from a complete listing. */
export const DELISTED_STATUS = "delisted";

/** Lookalike names listed in the facts; `lookalikes.count` is always the full count. */
export const LOOKALIKE_NAMES_LIMIT = 100;

/**
 * Whether a name can be in the catalog at all: no listed name holds a NUL (Postgres text cannot store one), so
 * a name with one is simply not there, and is never sent to the database (which would refuse the query).
 */
export const mayBeListedName = (name: string): boolean => !name.includes("\u0000");

/** Names per query: keeps IN lists well under the protocol's parameter limit. */
const CHUNK = 2000;

/** Listing details a card shows that the decision facts do not carry. */
export interface ListingDetails {
  id: number;
  title: string | null;
  description: string | null;
  website_url: string | null;
  status_message: string | null;
  published_at: string | null;
  registry_updated_at: string | null;
  delisted_at: string | null;
  /** The lookalike key of the server part (lib/facts/fold-name.ts). */
  name_fold: string;
}

export interface ServerRecord {
  facts: Facts;
  listing: ListingDetails;
}

/**
 * The facts of DESIGN §5 for one exact canonical name, from the catalog and the
 * latest stored observations; null when the name is not in the catalog. A value
 * never observed is null and stays null.
 */
export async function loadFacts(db: Queryable, name: string): Promise<Facts | null> {
  return (await loadServerRecords(db, [name])).get(name)?.facts ?? null;
}

/** The facts of many exact names at once (search, stats): a handful of set queries, not one per name. */
export async function loadFactsMany(db: Queryable, names: readonly string[]): Promise<Map<string, Facts>> {
  const records = await loadServerRecords(db, names);
  return new Map([...records].map(([name, r]) => [name, r.facts]));
}

/**
 * Facts plus listing details of every given name that is in the catalog (names
 * not found are absent from the map). Six queries per 2,000 names: servers with
 * their repository observation, packages, remotes, lookalikes, the newest sync;
 * brands come from a cache.
 */
export async function loadServerRecords(db: Queryable, names: readonly string[]): Promise<Map<string, ServerRecord>> {
  const out = new Map<string, ServerRecord>();
  const unique = [...new Set(names)].filter(mayBeListedName);
  if (!unique.length) return out;
  // the newest observation of the whole listing, not the newest import: an older dump written later does not
  // move it back, and a listing written as incomplete does not date the servers it lacks
  const [syncObservedAt, brands] = await Promise.all([latestListingObservedAt(db), loadBrands(db)]);
  for (let i = 0; i < unique.length; i += CHUNK) {
    await loadChunk(db, unique.slice(i, i + CHUNK), { syncObservedAt, brands }, out);
  }
  return out;
}

type Brands = Awaited<ReturnType<typeof loadBrands>>;

async function loadChunk(
  db: Queryable,
  names: string[],
  ctx: { syncObservedAt: Date | null; brands: Brands },
  out: Map<string, ServerRecord>,
): Promise<void> {
  const described = describedVersion(db);
  const rows = await db
    .select({
      server: {
        id: servers.id,
        name: servers.name,
        namespace: servers.namespace,
        serverPart: servers.serverPart,
        nameFold: servers.nameFold,
        title: servers.title,
        description: servers.description,
        websiteUrl: servers.websiteUrl,
        latestVersion: servers.latestVersion,
        latestVersionId: servers.latestVersionId,
        registryStatus: servers.registryStatus,
        statusMessage: servers.statusMessage,
        specEra: servers.specEra,
        publishedAt: servers.publishedAt,
        registryUpdatedAt: servers.registryUpdatedAt,
        firstSeenAt: servers.firstSeenAt,
        delistedAt: servers.delistedAt,
        updatedAt: servers.updatedAt,
      },
      repo: repositories,
      obs: repositoryObservations,
      // the version whose listing names the packages and remotes, and when the catalog stored it (a package read
      // before it may not know the version it pins)
      ...describedVersionFields(described),
    })
    .from(servers)
    .leftJoin(serverVersions, eq(serverVersions.id, servers.latestVersionId))
    .leftJoinLateral(described, sql`true`)
    .leftJoin(repositories, eq(repositories.id, servers.repositoryId))
    .leftJoin(repositoryObservations, eq(repositoryObservations.repositoryId, servers.repositoryId))
    .where(inArray(servers.name, names));
  if (!rows.length) return;

  const versionIds = rows.flatMap((r) => (r.versionId === null ? [] : [r.versionId]));
  const folds = [...new Set(rows.map((r) => r.server.nameFold))];
  const [packages, remotes, lookalikes] = await Promise.all([
    versionIds.length
      ? db
          .select({ pkg: serverPackages, obs: packageObservations, vuln: vulnObservations })
          .from(serverPackages)
          .leftJoin(
            packageObservations,
            and(eq(packageObservations.ecosystem, serverPackages.ecosystem), eq(packageObservations.identifier, serverPackages.identifier)),
          )
          .leftJoin(vulnObservations, vulnOfListedVersion)
          .where(inArray(serverPackages.versionId, versionIds))
          .orderBy(serverPackages.versionId, serverPackages.position)
      : [],
    versionIds.length
      ? db
          .select({ remote: serverRemotes, obs: remoteObservations })
          .from(serverRemotes)
          .leftJoin(remoteObservations, eq(remoteObservations.url, serverRemotes.url))
          .where(inArray(serverRemotes.versionId, versionIds))
          .orderBy(serverRemotes.versionId, serverRemotes.position)
      : [],
    // Lookalikes: listed servers whose name part folds to the same key (case,
    // homoglyphs, separators), whatever their namespace.
    db
      .select({ id: servers.id, name: servers.name, nameFold: servers.nameFold })
      .from(servers)
      .where(and(inArray(servers.nameFold, folds), isNull(servers.delistedAt))),
  ]);

  const packagesByVersion = groupBy(packages, (p) => p.pkg.versionId);
  const remotesByVersion = groupBy(remotes, (r) => r.remote.versionId);
  const byFold = groupBy(lookalikes, (l) => l.nameFold);
  for (const list of byFold.values()) list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

  for (const row of rows) {
    const s = row.server;
    const vid = row.versionId;
    const others = (byFold.get(s.nameFold) ?? []).filter((l) => l.id !== s.id);
    const facts = toFacts(row, {
      packages: vid === null ? [] : (packagesByVersion.get(vid) ?? []),
      remotes: vid === null ? [] : (remotesByVersion.get(vid) ?? []),
      lookalikes: others.map((l) => l.name),
      syncObservedAt: ctx.syncObservedAt,
      brands: ctx.brands,
    });
    out.set(s.name, {
      facts,
      listing: {
        id: s.id,
        title: s.title,
        description: s.description,
        website_url: s.websiteUrl,
        status_message: s.statusMessage,
        published_at: iso(s.publishedAt),
        registry_updated_at: iso(s.registryUpdatedAt),
        delisted_at: iso(s.delistedAt),
        name_fold: s.nameFold,
      },
    });
  }
}

type ServerJoinRow = {
  server: {
    id: number;
    name: string;
    namespace: string;
    title: string | null;
    description: string | null;
    latestVersion: string | null;
    registryStatus: string | null;
    specEra: string | null;
    firstSeenAt: Date;
    delistedAt: Date | null;
    updatedAt: Date;
  };
  repo: typeof repositories.$inferSelect | null;
  obs: typeof repositoryObservations.$inferSelect | null;
  /** When the catalog stored the latest listing (server_versions.created_at). */
  listedAt: Date | null;
};
type PackageJoinRow = {
  pkg: typeof serverPackages.$inferSelect;
  obs: typeof packageObservations.$inferSelect | null;
  /** The vulnerability look-up of the listed version (not of another server's version of the package). */
  vuln: typeof vulnObservations.$inferSelect | null;
};
type RemoteJoinRow = { remote: typeof serverRemotes.$inferSelect; obs: typeof remoteObservations.$inferSelect | null };

function toFacts(
  row: ServerJoinRow,
  rel: { packages: PackageJoinRow[]; remotes: RemoteJoinRow[]; lookalikes: string[]; syncObservedAt: Date | null; brands: Brands },
): Facts {
  const s = row.server;
  const { packages, remotes, lookalikes } = rel;
  const repo = row.repo;
  const obs = row.obs;
  // The host answered that the repository is gone (404/410/451/blocked): the archive state, last push and
  // stars kept in the row are from an earlier answer, not from this observation, so they are not facts now.
  const current = obs?.exists === false ? null : obs;
  const identity = deriveIdentity({
    namespace: s.namespace,
    repository: repo ? { host: repo.host, owner: repo.owner, observedOwner: obs?.exists === true ? obs.ownerLogin : null } : null,
    remoteUrls: remotes.map((r) => r.remote.url),
  });
  const brandClaims = claimsOf(rel.brands, { name: s.name, namespace: s.namespace, title: s.title, description: s.description });
  // A delisted server was last seen listed before the complete listing that lacked it. A listed one was seen by
  // the newest listing that saw every server, and (first listed by an incomplete one since) no earlier than it
  // was first seen.
  const listingObservedAt = s.delistedAt ?? (rel.syncObservedAt && rel.syncObservedAt > s.firstSeenAt ? rel.syncObservedAt : s.firstSeenAt);

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
          exists: repositoryExists(obs),
          archived: current?.archived ?? null,
          pushed_at: iso(current?.pushedAt),
          stars: current?.stars ?? null,
          observed_at: iso(obs?.observedAt),
          attempted_at: iso(obs?.attemptedAt),
        }
      : null,
    packages: packages.map(({ pkg, obs: o, vuln }) => {
      const current = advisoriesAreCurrent(pkg.version, vuln, o?.latestVersion ?? null);
      return {
        ecosystem: pkg.ecosystem,
        identifier: pkg.identifier,
        version: pkg.version,
        url: packagePageUrl(pkg.ecosystem, pkg.identifier),
        exists: listedVersionExists(o, pkg.ecosystem, pkg.version, row.listedAt),
        deprecated: listedVersionDeprecated(o, pkg.version, pkg.ecosystem),
        advisories: current
          ? (vuln!.advisories as { id: string; summary?: string | null; severity?: string | null }[]).map((a) => ({
              id: a.id,
              summary: a.summary ?? null,
              severity: a.severity ?? null,
            }))
          : null,
        observed_at: iso(o?.observedAt),
        attempted_at: iso(o?.attemptedAt),
        advisories_observed_at: current ? iso(vuln!.observedAt) : null,
        advisories_attempted_at: iso(vuln?.attemptedAt),
      };
    }),
    remotes: remotes.map(({ remote, obs: o }) => ({
      type: remote.type,
      url: remote.url,
      live: o?.live ?? null,
      http_status: o?.httpStatus ?? null,
      observed_at: iso(o?.observedAt),
      attempted_at: iso(o?.attemptedAt),
    })),
    lookalikes: { count: lookalikes.length, names: lookalikes.slice(0, LOOKALIKE_NAMES_LIMIT) },
  };
}

function groupBy<T, K>(xs: readonly T[], key: (x: T) => K): Map<K, T[]> {
  const m = new Map<K, T[]>();
  for (const x of xs) {
    const k = key(x);
    const list = m.get(k);
    if (list) list.push(x);
    else m.set(k, [x]);
  }
  return m;
}
