import type { Caller, QuotaState, WindowState } from "./caller";
import { secondsUntil } from "./utc";

/**
 * The headers of every metered response (contract Limits and the IETF
 * RateLimit fields, draft -07 and later):
 *   x-tier                     free | registered | pro
 *   x-ratelimit-limit/-remaining/-reset   the window closest to running out: keyed
 *                              callers' per-minute burst window; anonymous callers'
 *                              daily lookups (or the allowance the route charges, such as
 *                              "audits") unless the burst window has fewer left; on a 429,
 *                              the window that refused it.
 *                              -reset is epoch seconds; x-ratelimit-resource names it.
 *   x-credits-remaining        keyed callers' wallet
 *   RateLimit-Policy           every window: "burst";q=60;w=60[, "daily";q=10;w=86400]
 *   RateLimit                  remaining (r) and delta-seconds to reset (t) per window
 */
export function quotaHeaders(caller: Caller, state: QuotaState, now: Date = new Date()): Record<string, string> {
  const h: Record<string, string> = { "x-tier": caller.tier };
  const windows: [string, WindowState][] = [];
  if (state.burst) windows.push(["burst", state.burst]);
  if (state.daily) windows.push(["daily", state.daily]);
  if (state.allowance) windows.push([state.allowance.name, state.allowance]);
  if (windows.length) {
    // a 429 describes the window that refused it (Retry-After's); otherwise the daily allowances win ties: they
    // are what a person plans around
    const [name, w] =
      windows.find(([n]) => n === state.refusedBy) ?? windows.reduce((a, b) => (b[1].remaining <= a[1].remaining ? b : a));
    h["x-ratelimit-limit"] = String(w.limit);
    h["x-ratelimit-remaining"] = String(w.remaining);
    h["x-ratelimit-reset"] = String(Math.ceil(w.resetAt.getTime() / 1000));
    h["x-ratelimit-resource"] = name;
    h["ratelimit-policy"] = windows.map(([n, x]) => `"${n}";q=${x.limit};w=${x.windowSeconds}`).join(", ");
    h["ratelimit"] = windows.map(([n, x]) => `"${n}";r=${x.remaining};t=${secondsUntil(x.resetAt, now)}`).join(", ");
  }
  if (caller.accountId && state.creditsRemaining !== undefined) h["x-credits-remaining"] = String(state.creditsRemaining);
  return h;
}
