import type { Db } from "@/lib/db/client";
import { pruneExpiredSignIns } from "@/lib/auth/prune-expired-sign-ins";
import { purgeEvaluations } from "@/lib/evaluations/purge-evaluations";
import { pruneQuotaRows } from "@/lib/quota";
import { pruneDeliveries } from "@/lib/watches/prune-deliveries";

/**
 * Daily upkeep: evaluation retention (90 days), per-day quota rows past their use, finished webhook deliveries
 * (30 days), expired sessions and sign-in links.
 */
export async function runMaintenance(db: Db, now = new Date()) {
  const evaluationsPurged = await purgeEvaluations(db, now);
  await pruneQuotaRows(db, now);
  const deliveriesPruned = await pruneDeliveries(db, now);
  await pruneExpiredSignIns(db, now);
  return { ok: true as const, evaluations_purged: evaluationsPurged, deliveries_pruned: deliveriesPruned, ran_at: now.toISOString() };
}
