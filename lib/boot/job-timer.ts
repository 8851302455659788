import { log } from "@/lib/log";
import { errorMessage } from "@/lib/db/query-error";

/**
 * A background loop of the server process (the embedded default has no cron):
 * `run` every `intervalMs` (first after `firstDelayMs`), never two at once in
 * this process, one loop per `name` (starting it again replaces the old one).
 * Other workers (cron routes, CLI jobs, other instances) may run alongside;
 * leases keep them apart. Returns the stop function, which also aborts `run`.
 */
export function startJobTimer(name: string, intervalMs: number, run: (signal: AbortSignal) => Promise<void>, firstDelayMs = intervalMs): () => void {
  const key = Symbol.for(`mcp-preflight.${name}-timer`);
  const g = globalThis as unknown as Record<symbol, (() => void) | undefined>;
  g[key]?.();
  let running = false;
  const controller = new AbortController();
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      await run(controller.signal);
    } catch (err) {
      log.error(`${name} run failed`, { error: errorMessage(err) });
    } finally {
      running = false;
    }
  };
  // an earlier first run only when asked for; otherwise the interval's own first tick
  const first = firstDelayMs < intervalMs ? setTimeout(() => void tick(), firstDelayMs) : undefined;
  first?.unref();
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  const stop = () => {
    clearTimeout(first);
    clearInterval(timer);
    controller.abort();
    if (g[key] === stop) g[key] = undefined;
  };
  g[key] = stop;
  return stop;
}
