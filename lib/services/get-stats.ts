import { and, count, gt, sql } from "drizzle-orm";
import type { Queryable } from "@/lib/db/client";
import { evaluations } from "@/lib/db/schema";
import { latestListingObservedAt } from "@/lib/reports/catalog-times";
import { computeCatalogCensus } from "@/lib/reports/catalog-census";
import { memoized } from "@/lib/reports/memo";
import type { StatsReport } from "@/lib/schemas/reports";

const DAY_MS = 86_400_000;

/** GET /v1/stats and catalog_stats: headline counts of the catalog. Unmetered; memoized per process. */
export function getStats(db: Queryable, opts: { now?: Date } = {}): Promise<StatsReport> {
  return memoized(db, "stats", () => computeStats(db, opts.now ?? new Date()));
}

export async function computeStats(db: Queryable, now: Date): Promise<StatsReport> {
  // every server count comes from the one census (kept a minute, shared with coverage), so they add up
  const [census, [evals], asOf] = await Promise.all([
    memoized(db, "census", () => computeCatalogCensus(db, now)),
    db
      .select({ n: count() })
      .from(evaluations)
      .where(and(gt(evaluations.evaluatedAt, new Date(now.getTime() - DAY_MS)), sql`${evaluations.evaluatedAt} <= ${now}`)),
    latestListingObservedAt(db),
  ]);
  return {
    ok: true,
    as_of: asOf?.toISOString() ?? null,
    servers: { listed: census.listed, delisted: census.delisted, by_registry_status: census.byRegistryStatus },
    health: census.health,
    health_problems: census.problems,
    verified: census.verified,
    verified_unknown: census.verifiedUnknown,
    artifacts: census.artifacts,
    evaluations_24h: evals.n,
  };
}
