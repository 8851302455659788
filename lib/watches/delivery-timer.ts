import type { Db } from "@/lib/db/client";
import { log } from "@/lib/log";
import { startJobTimer } from "@/lib/boot/job-timer";
import { runDeliveries } from "./run-deliveries";

/** The server process's own delivery loop: every `intervalMs`, send what is due. Returns the stop function. */
export function startDeliveryTimer(db: Db, intervalMs: number): () => void {
  return startJobTimer("delivery", intervalMs, async (signal) => {
    const r = await runDeliveries(db, { budgetMs: Math.max(intervalMs * 6, 30_000), signal });
    if (r.attempts) log.info("deliveries sent", { ...r });
  });
}
