import type { Db } from "@/lib/db/client";
import { log } from "@/lib/log";
import { startJobTimer } from "@/lib/boot/job-timer";
import { runHarvest } from "./run-harvest";

/**
 * The embedded server's own harvest loop: a first run shortly after start, then
 * one every `intervalMs`. Returns the stop function.
 */
export function startHarvestTimer(db: Db, intervalMs: number, firstDelayMs = 30_000): () => void {
  return startJobTimer(
    "harvest",
    intervalMs,
    async (signal) => {
      const r = await runHarvest(db, { trigger: "timer", signal });
      log.info("harvest run finished", { run: r.runId, status: r.status, calls: r.calls, changes: r.changes, ms: r.durationMs, stopped: r.stopped });
    },
    firstDelayMs,
  );
}
