import type { Db } from "@/lib/db/client";
import { log } from "@/lib/log";
import { runMaintenance } from "@/lib/services/run-maintenance";
import { startJobTimer } from "./job-timer";

/**
 * The server process's own daily upkeep (evaluation retention, spent quota rows, old deliveries, abandoned harvest
 * runs), where no cron calls /api/cron/maintenance: hourly, the first a minute after start. Each run only deletes
 * what is past its time (and closes only runs whose process is gone), so instances and the cron route may all run it.
 */
export function startMaintenanceTimer(db: Db, intervalMs: number): () => void {
  return startJobTimer(
    "maintenance",
    intervalMs,
    async () => {
      const r = await runMaintenance(db);
      if (r.evaluations_purged || r.deliveries_pruned || r.harvest_runs_closed) log.info("maintenance", { ...r });
    },
    Math.min(60_000, intervalMs),
  );
}
