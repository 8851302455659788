import { and, count, gt, isNotNull, isNull, sql } from "drizzle-orm";
import type { Queryable } from "@/lib/db/client";
import { evaluations, servers } from "@/lib/db/schema";
import { latestListingObservedAt } from "@/lib/reports/catalog-times";
import { computeCatalogCensus, sortKeys } from "@/lib/reports/catalog-census";
import { memoized } from "@/lib/reports/memo";
import type { StatsReport } from "@/lib/schemas/reports";

const DAY_MS = 86_400_000;

/** GET /v1/stats and catalog_stats: headline counts of the catalog. Unmetered; memoized per process. */
export function getStats(db: Queryable, opts: { now?: Date } = {}): Promise<StatsReport> {
  return memoized(db, "stats", () => computeStats(db, opts.now ?? new Date()));
}

export async function computeStats(db: Queryable, now: Date): Promise<StatsReport> {
  const [census, statusRows, [delisted], [evals], asOf] = await Promise.all([
    memoized(db, "census", () => computeCatalogCensus(db, now)),
    db
      .select({ status: servers.registryStatus, n: count() })
      .from(servers)
      .where(isNull(servers.delistedAt))
      .groupBy(servers.registryStatus),
    db.select({ n: count() }).from(servers).where(isNotNull(servers.delistedAt)),
    db
      .select({ n: count() })
      .from(evaluations)
      .where(and(gt(evaluations.evaluatedAt, new Date(now.getTime() - DAY_MS)), sql`${evaluations.evaluatedAt} <= ${now}`)),
    latestListingObservedAt(db),
  ]);
  const byStatus: Record<string, number> = {};
  for (const r of statusRows) byStatus[r.status ?? "unknown"] = (byStatus[r.status ?? "unknown"] ?? 0) + r.n;
  return {
    ok: true,
    as_of: asOf?.toISOString() ?? null,
    servers: { listed: census.listed, delisted: delisted.n, by_registry_status: sortKeys(byStatus) },
    health: census.health,
    health_problems: census.problems,
    verified: census.verified,
    artifacts: census.artifacts,
    evaluations_24h: evals.n,
  };
}
