import type { Db } from "@/lib/db/client";
import { purgeEvaluations } from "@/lib/evaluations/purge-evaluations";
import { pruneQuotaRows } from "@/lib/quota";

/** Daily upkeep: evaluation retention (90 days) and per-day quota rows past their use. */
export async function runMaintenance(db: Db, now = new Date()) {
  const evaluationsPurged = await purgeEvaluations(db, now);
  await pruneQuotaRows(db, now);
  return { ok: true as const, evaluations_purged: evaluationsPurged, ran_at: now.toISOString() };
}
