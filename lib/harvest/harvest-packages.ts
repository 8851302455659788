import { and, eq, inArray, sql } from "drizzle-orm";
import { FRESHNESS_MS, HARVEST_CHUNK, HARVEST_CONCURRENCY } from "@/lib/config";
import type { Tx } from "@/lib/db/client";
import { packageObservations, serverPackages } from "@/lib/db/schema";
import { describedVersionRows } from "@/lib/facts/described-version";
import { fetchPackument, type PackageAnswer } from "@/lib/sources/npm";
import { fetchPypiProject } from "@/lib/sources/pypi";
import { query, ts } from "./db-helpers";
import { httpFor, type HarvestContext, type SourceSpec } from "./harvest-context";
import { loadServerEvidence } from "./load-server-evidence";
import { poolRespectingLimits } from "./run-source";
import { detectStateChanges } from "./state-changes";

interface PackageItem {
  identifier: string;
  etag: string | null;
  attemptedAt: number | null;
}

const ms = (v: unknown): number | null => (v === null || v === undefined ? null : new Date(v as string).getTime());

type Ecosystem = "jspkg" | "pypkg";

/**
 * Distinct packages of one ecosystem named by the described version of a listed server (its latest, else the one
 * the facts read: lib/facts/described-version.ts): due when never observed, older than the freshness target, or
 * when a listing newer than the observation pins a version the observation lacks (a new release: its deprecation
 * or yank state is not known yet).
 */
function dueSql(ctx: HarvestContext, ecosystem: Ecosystem) {
  const now = ctx.clock();
  const described = describedVersionRows(ctx.db, { listedOnly: true });
  return sql`
    select p.identifier, o.etag, o.attempted_at
    from (select sp.identifier,
                 array_agg(distinct sp.version) filter (where sp.version is not null) as versions,
                 max(v.created_at) as listed_at
          from server_packages sp
          join ${described.rows} on ${described.versionId} = sp.version_id
          join server_versions v on v.id = sp.version_id
          where sp.ecosystem = ${ecosystem}
          group by sp.identifier) p
    left join package_observations o on o.ecosystem = ${ecosystem} and o.identifier = p.identifier
    left join leases l on l.key = ${`harvest:${ecosystem}:`} || p.identifier and l.expires_at > ${ts(now)}
    where l.key is null
      and (o.observed_at is null
           or o.observed_at < ${ts(new Date(now.getTime() - FRESHNESS_MS[ecosystem]))}
           or (o.exists and o.observed_at < p.listed_at
               and exists (select 1 from unnest(p.versions) as lv where not jsonb_exists(coalesce(o.versions, '{}'::jsonb), lv))))
      and (o.attempted_at is null or o.attempted_at < ${ts(ctx.runStart)})`;
}

/** Servers whose described version lists one of these packages. */
async function affectedServers(tx: Tx, ecosystem: string, identifiers: string[]): Promise<number[]> {
  if (!identifiers.length) return [];
  const described = describedVersionRows(tx, { listedOnly: false });
  const rows = await tx
    .selectDistinct({ id: described.serverId })
    .from(serverPackages)
    .innerJoin(described.rows, eq(described.versionId, serverPackages.versionId))
    .where(and(eq(serverPackages.ecosystem, ecosystem), inArray(serverPackages.identifier, identifiers)));
  return rows.map((r) => r.id);
}

function packageSource(ecosystem: Ecosystem): SourceSpec<PackageItem, PackageAnswer> {
  const fetchOne = ecosystem === "jspkg" ? fetchPackument : fetchPypiProject;
  return {
    source: ecosystem,
    chunkSize: HARVEST_CHUNK,
    async countDue(ctx) {
      const [row] = await query<{ n: number }>(ctx.db, sql`select count(*)::int as n from (${dueSql(ctx, ecosystem)}) d`);
      return Number(row?.n ?? 0);
    },
    async selectDue(ctx, limit) {
      const rows = await query<{ identifier: string; etag: string | null; attempted_at: unknown }>(
        ctx.db,
        sql`select * from (${dueSql(ctx, ecosystem)}) d order by d.attempted_at asc nulls first, d.identifier limit ${limit}`,
      );
      return rows.map((r) => ({ identifier: r.identifier, etag: r.etag, attemptedAt: ms(r.attempted_at) }));
    },
    key: (i) => i.identifier,
    async attemptsNow(ctx, items) {
      const rows = await ctx.db
        .select({ identifier: packageObservations.identifier, at: packageObservations.attemptedAt })
        .from(packageObservations)
        .where(and(eq(packageObservations.ecosystem, ecosystem), inArray(packageObservations.identifier, items.map((i) => i.identifier))));
      return new Map(rows.map((r) => [r.identifier, r.at?.getTime() ?? null]));
    },
    failure: (error) => ({ kind: "error", error }),
    failed: (r) => r.kind === "error",
    // No batch read API exists on either registry: one GET per package, a few in flight, ETags for 304s.
    async fetch(ctx, items) {
      const http = httpFor(ctx, ecosystem);
      return poolRespectingLimits(ctx, ecosystem, items, HARVEST_CONCURRENCY[ecosystem], (it) => fetchOne(it.identifier, it.etag, http), (error) => ({
        kind: "error" as const,
        error,
      }));
    },
    async write(ctx, tx, items, results, at) {
      const affected = await affectedServers(
        tx,
        ecosystem,
        items.map((i) => i.identifier),
      );
      const before = await loadServerEvidence(tx, affected);
      const upsert = async (rows: (typeof packageObservations.$inferInsert)[], set: Record<string, unknown>) => {
        if (rows.length) await tx.insert(packageObservations).values(rows).onConflictDoUpdate({ target: [packageObservations.ecosystem, packageObservations.identifier], set });
      };
      const ex = (c: string) => sql.raw(`excluded.${c}`);
      const rows = items.map((it, i) => ({ it, r: results[i] }));
      await upsert(
        rows.flatMap(({ it, r }) =>
          r.kind === "found"
            ? [{ ecosystem, identifier: it.identifier, exists: true, unpublished: false, latestVersion: r.latestVersion, versions: r.versions, deprecated: r.deprecated, etag: r.etag, observedAt: at, attemptedAt: at, lastError: null }]
            : [],
        ),
        {
          exists: ex("exists"),
          unpublished: ex("unpublished"),
          latestVersion: ex("latest_version"),
          versions: ex("versions"),
          deprecated: ex("deprecated"),
          etag: ex("etag"),
          observedAt: ex("observed_at"),
          attemptedAt: ex("attempted_at"),
          lastError: sql`null`,
        },
      );
      // Missing (404) or unpublished (tombstone): an answer; what we knew of its versions is kept.
      await upsert(
        rows.flatMap(({ it, r }) =>
          r.kind === "missing" || r.kind === "unpublished"
            ? [{ ecosystem, identifier: it.identifier, exists: false, unpublished: r.kind === "unpublished", etag: null, observedAt: at, attemptedAt: at, lastError: r.kind === "missing" ? `HTTP ${r.httpStatus}` : "unpublished" }]
            : [],
        ),
        { exists: ex("exists"), unpublished: ex("unpublished"), etag: sql`null`, observedAt: ex("observed_at"), attemptedAt: ex("attempted_at"), lastError: ex("last_error") },
      );
      const confirmed = rows.filter(({ r }) => r.kind === "not_modified").map(({ it }) => it.identifier);
      for (let i = 0; i < confirmed.length; i += 500) {
        const part = confirmed.slice(i, i + 500);
        await tx
          .update(packageObservations)
          .set({ observedAt: at, attemptedAt: at, lastError: null })
          .where(and(eq(packageObservations.ecosystem, ecosystem), inArray(packageObservations.identifier, part)));
      }
      // No answer: the attempt only; the last good values stay.
      await upsert(
        rows.flatMap(({ it, r }) => (r.kind === "error" ? [{ ecosystem, identifier: it.identifier, attemptedAt: at, lastError: r.error.slice(0, 500) }] : [])),
        { attemptedAt: ex("attempted_at"), lastError: ex("last_error") },
      );
      return await detectStateChanges(tx, before, await loadServerEvidence(tx, affected), at);
    },
  };
}

export const jspkgSource = packageSource("jspkg");
export const pypkgSource = packageSource("pypkg");
