import type { Db } from "@/lib/db/client";
import { pruneExpiredSignIns } from "@/lib/auth/prune-expired-sign-ins";
import { purgeEvaluations } from "@/lib/evaluations/purge-evaluations";
import { pruneQuotaRows } from "@/lib/quota";
import { pruneDeliveries } from "@/lib/watches/prune-deliveries";
import { closeAbandonedRuns } from "@/lib/harvest/close-abandoned-runs";

/**
 * Daily upkeep: evaluation retention (90 days), per-day quota rows past their use, finished webhook deliveries
 * (30 days), expired sessions and sign-in links, and harvest runs whose process ended before finishing them.
 */
export async function runMaintenance(db: Db, now = new Date()) {
  const evaluationsPurged = await purgeEvaluations(db, now);
  await pruneQuotaRows(db, now);
  const deliveriesPruned = await pruneDeliveries(db, now);
  await pruneExpiredSignIns(db, now);
  // A server stopped or killed mid-harvest leaves its run's row 'running', and only the next harvest closed it:
  // with the harvest timer off, or its first run an hour after the restart, coverage said a harvest was running.
  // The server's upkeep runs a minute after it starts (and Vercel's cron daily).
  const harvestRunsClosed = await closeAbandonedRuns(db, now);
  return {
    ok: true as const,
    evaluations_purged: evaluationsPurged,
    deliveries_pruned: deliveriesPruned,
    harvest_runs_closed: harvestRunsClosed,
    ran_at: now.toISOString(),
  };
}
