import type { Db } from "@/lib/db/client";
import { log } from "@/lib/log";
import { runHarvest } from "./run-harvest";

const TIMER_KEY = Symbol.for("mcp-preflight.harvest-timer");

/**
 * The embedded server's own harvest loop (no cron there): a first run shortly
 * after start, then one every `intervalMs`, never two at once in this process.
 * Other runs (the cron route, `npm run harvest`, other instances) may overlap;
 * leases keep them off each other's items. Returns the stop function.
 */
export function startHarvestTimer(db: Db, intervalMs: number, firstDelayMs = 30_000): () => void {
  const g = globalThis as unknown as Record<symbol, (() => void) | undefined>;
  g[TIMER_KEY]?.();
  let running = false;
  const controller = new AbortController();
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      const r = await runHarvest(db, { trigger: "timer", signal: controller.signal });
      log.info("harvest run finished", { run: r.runId, status: r.status, calls: r.calls, changes: r.changes, ms: r.durationMs, stopped: r.stopped });
    } catch (err) {
      log.error("harvest run failed", { error: (err as Error).message });
    } finally {
      running = false;
    }
  };
  const first = setTimeout(() => void tick(), firstDelayMs);
  first.unref();
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  const stop = () => {
    clearTimeout(first);
    clearInterval(timer);
    controller.abort();
    if (g[TIMER_KEY] === stop) g[TIMER_KEY] = undefined;
  };
  g[TIMER_KEY] = stop;
  return stop;
}
