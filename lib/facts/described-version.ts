import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Queryable } from "@/lib/db/client";
import { servers, serverVersions } from "@/lib/db/schema";

const described = alias(serverVersions, "described_version");

/**
 * The version whose listing describes a server, for a server the catalog has seen only through non-latest rows (an
 * incremental crawl, lib/catalog/ingest-entries.ts): the one whose published time the server row took (the first
 * written of those), until a latest arrives. Its packages and remotes are what the listing names: reading none
 * for such a server said "lists no package, no remote" and let a preflight PASS on packages nobody had looked at.
 *
 * A lateral subquery, joined beside `server_versions` on `latest_version_id`: it runs only for a server without a
 * latest (a one-time filter), while a join on `coalesce(latest_version_id, (subquery))` made Postgres hash the
 * whole versions table for every facts read.
 */
export function describedVersion(q: Queryable) {
  return q
    .select({ id: described.id, createdAt: described.createdAt })
    .from(described)
    .where(and(isNull(servers.latestVersionId), eq(described.serverId, servers.id)))
    .orderBy(sql`(${described.publishedAt} is not distinct from ${servers.publishedAt}) desc`, sql`${described.publishedAt} desc nulls last`, described.id)
    .limit(1)
    .as("described");
}

/**
 * The described version's id and when the catalog stored it, from the latest version joined as `server_versions`
 * or else from `describedVersion`.
 */
export function describedVersionFields(d: ReturnType<typeof describedVersion>) {
  return {
    versionId: sql<number | null>`coalesce(${serverVersions.id}, ${d.id})`.mapWith(Number),
    listedAt: sql<Date | null>`coalesce(${serverVersions.createdAt}, ${d.createdAt})`.mapWith(serverVersions.createdAt),
  };
}

/**
 * Each server's described version as rows (server_id, version_id), for reading many servers at once (the harvest's
 * due items, the servers an observation concerns): the latest version where there is one, else the version
 * `describedVersion` picks. Two branches rather than one `coalesce`, so the common one stays a plain scan of
 * `servers` and the lateral pick runs only for the few servers without a latest. `listedOnly` leaves delisted
 * servers out. The columns come as qualified references: drizzle names a subquery's aliased field unqualified,
 * which a join makes ambiguous.
 */
export function describedVersionRows(q: Queryable, opts: { listedOnly: boolean }) {
  const d = describedVersion(q);
  const listed = opts.listedOnly ? isNull(servers.delistedAt) : undefined;
  const serverId = sql<number>`${servers.id}`.as("server_id");
  const rows = q
    .select({ serverId, versionId: sql<number>`${servers.latestVersionId}`.as("version_id") })
    .from(servers)
    .where(and(isNotNull(servers.latestVersionId), listed))
    .unionAll(
      q
        .select({ serverId, versionId: sql<number>`${d.id}`.as("version_id") })
        .from(servers)
        .innerJoinLateral(d, sql`true`)
        .where(and(isNull(servers.latestVersionId), listed)),
    )
    .as("described_versions");
  return {
    rows,
    serverId: sql<number>`"described_versions"."server_id"`.mapWith(Number),
    versionId: sql<number>`"described_versions"."version_id"`.mapWith(Number),
  };
}
