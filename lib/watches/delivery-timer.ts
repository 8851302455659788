import type { Db } from "@/lib/db/client";
import { log } from "@/lib/log";
import { runDeliveries } from "./run-deliveries";

const TIMER_KEY = Symbol.for("mcp-preflight.delivery-timer");

/**
 * The server process's own delivery loop (the embedded default has no cron):
 * every `intervalMs`, send what is due, one run at a time. Other workers (the
 * cron route, `npm run deliver`, other instances) may run alongside; leases
 * keep them apart. Returns the stop function.
 */
export function startDeliveryTimer(db: Db, intervalMs: number): () => void {
  const g = globalThis as unknown as Record<symbol, (() => void) | undefined>;
  g[TIMER_KEY]?.();
  let running = false;
  const controller = new AbortController();
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      const r = await runDeliveries(db, { budgetMs: Math.max(intervalMs * 6, 30_000), signal: controller.signal });
      if (r.attempts) log.info("deliveries sent", { ...r });
    } catch (err) {
      log.error("delivery run failed", { error: (err as Error).message });
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  const stop = () => {
    clearInterval(timer);
    controller.abort();
    if (g[TIMER_KEY] === stop) g[TIMER_KEY] = undefined;
  };
  g[TIMER_KEY] = stop;
  return stop;
}
