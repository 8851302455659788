import { sql } from "drizzle-orm";
import type { Queryable } from "@/lib/db/client";
import { FRESHNESS_MS } from "@/lib/config";
import { describedVersionRows } from "@/lib/facts/described-version";
import { computeCatalogCensus } from "@/lib/reports/catalog-census";
import { latestListingObservedAt } from "@/lib/reports/catalog-times";
import { memoized } from "@/lib/reports/memo";
import { sqlRows } from "@/lib/reports/sql-rows";
import type { CoverageReport, SourceCoverage } from "@/lib/schemas/reports";

const DAY_MS = 86_400_000;
const iso = (v: Date | string | null | undefined): string | null => (v ? new Date(v).toISOString() : null);
const num = (v: unknown): number => Number(v ?? 0);

/**
 * GET /v1/coverage and catalog_coverage: what the catalog holds and how much of it the evidence sources
 * have observed, how fresh that is, what identity evidence exists, how the harvester and the registry
 * syncs (the discovery pipeline) are doing. Unmetered; memoized per process.
 */
export function getCoverage(db: Queryable, opts: { now?: Date } = {}): Promise<CoverageReport> {
  return memoized(db, "coverage", () => computeCoverage(db, opts.now ?? new Date()));
}

/**
 * The versions whose artifacts every source is measured against: each listed server's described version (its
 * latest, else the one lib/facts/described-version.ts picks), the one its card and preflight read. Every version
 * row would count the packages and remotes of versions nobody is described by; only the latest would leave out a
 * server seen only through non-latest rows, whose card still names its packages and remotes.
 */
function listedVersions(db: Queryable) {
  const d = describedVersionRows(db, { listedOnly: true });
  return sql`select ${d.versionId} from ${d.rows}`;
}

type SourceRow = {
  items: unknown;
  observed: unknown;
  attempted_only: unknown;
  never_attempted: unknown;
  fresh: unknown;
  errors: unknown;
  oldest: Date | string | null;
  newest: Date | string | null;
  up?: unknown;
  down?: unknown;
};

function sourceSql(items: ReturnType<typeof sql>, join: ReturnType<typeof sql>, freshSince: Date, errorColumn = sql`o.last_error`, extra = sql``) {
  return sql`
    with items as (${items})
    select count(*) as items,
      count(o.observed_at) as observed,
      count(*) filter (where o.observed_at is null and o.attempted_at is not null) as attempted_only,
      count(*) filter (where o.observed_at is null and o.attempted_at is null) as never_attempted,
      count(*) filter (where o.observed_at >= ${freshSince.toISOString()}::timestamptz) as fresh,
      -- the last attempt got no answer: a gone repository or a missing package keeps its reason in last_error too,
      -- but that is an answer (observed at the same instant), not an error
      count(*) filter (where ${errorColumn} is not null and (o.observed_at is null or o.attempted_at > o.observed_at)) as errors,
      min(o.observed_at) as oldest,
      max(o.observed_at) as newest
      ${extra}
    from items i ${join}`;
}

function toSource(r: SourceRow, freshnessMs: number): SourceCoverage {
  const items = num(r.items);
  const observed = num(r.observed);
  return {
    items,
    observed,
    attempted_not_observed: num(r.attempted_only),
    never_attempted: num(r.never_attempted),
    fresh: num(r.fresh),
    stale: observed - num(r.fresh),
    with_errors: num(r.errors),
    coverage: items ? Math.round((observed / items) * 1000) / 1000 : null,
    freshness_target_hours: freshnessMs / 3_600_000,
    oldest_observed_at: iso(r.oldest),
    newest_observed_at: iso(r.newest),
  };
}

export async function computeCoverage(db: Queryable, now: Date): Promise<CoverageReport> {
  const since = (ms: number) => new Date(now.getTime() - ms);
  const listed = listedVersions(db);
  const pkgItems = (eco: string) =>
    sql`select distinct sp.ecosystem, sp.identifier from server_packages sp where sp.version_id in (${listed}) and sp.ecosystem = ${eco}`;
  const pkgJoin = sql`left join package_observations o on o.ecosystem = i.ecosystem and o.identifier = i.identifier`;

  const [census, [totals], packageKinds, [repo], [jspkg], [pypkg], [vuln], [liveness], runs, syncs, [fresh], [lastRun], [lastSyncRow], listingObservedAt] = await Promise.all([
    memoized(db, "census", () => computeCatalogCensus(db, now)),
    sqlRows<Record<string, unknown>>(
      db,
      sql`select
        (select count(*) from server_versions) as versions,
        (select count(distinct namespace) from servers where delisted_at is null) as namespaces,
        (select count(distinct repository_id) from servers where delisted_at is null) as repositories,
        (select count(distinct url) from server_remotes where version_id in (${listed})) as remotes`,
    ),
    sqlRows<{ ecosystem: string; n: unknown }>(
      db,
      sql`select ecosystem, count(distinct identifier) as n from server_packages where version_id in (${listed}) group by ecosystem order by ecosystem`,
    ),
    sqlRows<SourceRow>(
      db,
      sourceSql(
        sql`select distinct repository_id as id from servers where delisted_at is null and repository_id is not null`,
        sql`left join repository_observations o on o.repository_id = i.id`,
        since(FRESHNESS_MS.repo),
      ),
    ),
    sqlRows<SourceRow>(db, sourceSql(pkgItems("jspkg"), pkgJoin, since(FRESHNESS_MS.jspkg))),
    sqlRows<SourceRow>(db, sourceSql(pkgItems("pypkg"), pkgJoin, since(FRESHNESS_MS.pypkg))),
    sqlRows<SourceRow>(
      db,
      sourceSql(
        sql`select distinct sp.ecosystem, sp.identifier, coalesce(sp.version, '') as listed_version from server_packages sp
            where sp.version_id in (${listed}) and sp.ecosystem in ('jspkg', 'pypkg')`,
        sql`left join vuln_observations o on o.ecosystem = i.ecosystem and o.identifier = i.identifier and o.listed_version = i.listed_version`,
        since(FRESHNESS_MS.vuln),
        sql`o.last_error`,
        sql`, count(*) filter (where jsonb_array_length(o.advisories) > 0) as up`,
      ),
    ),
    sqlRows<SourceRow>(
      db,
      sourceSql(
        sql`select distinct url from server_remotes where version_id in (${listed})`,
        sql`left join remote_observations o on o.url = i.url`,
        since(FRESHNESS_MS.liveness),
        sql`o.last_error`,
        sql`, count(*) filter (where o.live) as up, count(*) filter (where o.live = false) as down`,
      ),
    ),
    sqlRows<{ id: unknown; trigger: string; status: string; started_at: Date | string; finished_at: Date | string | null; counts: unknown; stopped: unknown }>(
      db,
      sql`select id, trigger, status, started_at, finished_at, counts, stopped from harvest_runs order by started_at desc, id desc limit 5`,
    ),
    sqlRows<{
      id: unknown;
      source: string;
      origin: string;
      complete: boolean;
      status: string;
      started_at: Date | string;
      finished_at: Date | string | null;
      observed_at: Date | string | null;
      entries: unknown;
      error: string | null;
    }>(db, sql`select id, source, origin, complete, status, started_at, finished_at, observed_at, entries, error from registry_syncs order by id desc limit 5`),
    sqlRows<Record<string, unknown>>(
      db,
      sql`select
        count(*) filter (where first_seen_at > ${since(DAY_MS).toISOString()}::timestamptz) as d1,
        count(*) filter (where first_seen_at > ${since(7 * DAY_MS).toISOString()}::timestamptz) as d7,
        count(*) filter (where first_seen_at > ${since(30 * DAY_MS).toISOString()}::timestamptz) as d30
        from servers where delisted_at is null`,
    ),
    // The last successes are looked for past the five newest runs and syncs: a source failing for a few hours
    // does not make the catalog's listing, or the harvest, one that never succeeded.
    sqlRows<{ finished_at: Date | string | null }>(
      db,
      sql`select finished_at from harvest_runs where status = 'succeeded' order by started_at desc, id desc limit 1`,
    ),
    sqlRows<{ finished_at: Date | string | null }>(
      db,
      sql`select finished_at from registry_syncs where status = 'succeeded' order by id desc limit 1`,
    ),
    // when the listing was read, as the cards date it: an older dump imported last does not move it back
    latestListingObservedAt(db),
  ]);

  const lastSync = lastSyncRow ?? null;
  return {
    ok: true,
    census: {
      // the census's counts, which the identity tallies below are of (it is kept a minute, these queries are not)
      servers_listed: census.listed,
      servers_delisted: census.delisted,
      versions: num(totals.versions),
      namespaces: num(totals.namespaces),
      repositories: num(totals.repositories),
      packages: Object.fromEntries(packageKinds.map((r) => [r.ecosystem, num(r.n)])),
      remotes: num(totals.remotes),
    },
    sources: {
      registry: {
        items: census.listed,
        observed_at: iso(listingObservedAt),
        last_sync_at: iso(lastSync?.finished_at),
      },
      repo: toSource(repo, FRESHNESS_MS.repo),
      jspkg: toSource(jspkg, FRESHNESS_MS.jspkg),
      pypkg: toSource(pypkg, FRESHNESS_MS.pypkg),
      vuln: { ...toSource(vuln, FRESHNESS_MS.vuln), with_advisories: num(vuln.up) },
      liveness: { ...toSource(liveness, FRESHNESS_MS.liveness), live: num(liveness.up), down: num(liveness.down) },
    },
    identity: {
      namespace_verification: census.namespaceVerification,
      first_party: census.firstParty,
      first_party_basis: census.firstPartyBasis,
      brand_claims: census.brandClaims,
      servers_with_lookalikes: census.lookalikes.servers,
    },
    harvest: {
      last_run_at: iso(runs[0]?.started_at),
      last_success_at: iso(lastRun?.finished_at),
      running: runs.some((r) => r.status === "running"),
      recent_runs: runs.map((r) => ({
        id: num(r.id),
        trigger: r.trigger,
        status: r.status,
        started_at: iso(r.started_at)!,
        finished_at: iso(r.finished_at),
        counts: (r.counts ?? null) as Record<string, unknown> | null,
        stopped: (r.stopped ?? null) as Record<string, unknown> | null,
      })),
    },
    discovery: {
      last_success_at: iso(lastSync?.finished_at),
      listing_observed_at: iso(listingObservedAt),
      new_servers: { last_24h: num(fresh.d1), last_7d: num(fresh.d7), last_30d: num(fresh.d30) },
      recent_syncs: syncs.map((s) => ({
        id: num(s.id),
        source: s.source,
        // a dump's local path says nothing useful to the public; its file name does
        origin: s.source === "file" ? s.origin.split(/[\\/]/).pop()! : s.origin,
        complete: s.complete,
        status: s.status,
        started_at: iso(s.started_at)!,
        finished_at: iso(s.finished_at),
        observed_at: iso(s.observed_at),
        entries: num(s.entries),
        error: s.error,
      })),
    },
  };
}
