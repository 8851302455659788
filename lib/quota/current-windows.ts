import { getDb, type Queryable } from "@/lib/db/client";
import { log } from "@/lib/log";
import { isAnonymous, type Caller, type QuotaState } from "./caller";
import { anonymousAllowanceBucket, burstBucket, burstWindow, dailyWindow } from "./check-burst";
import { readCounter } from "./counters";
import { startOfUtcDay, windowStart } from "./utc";
import { BURST_WINDOW_SECONDS } from "@/lib/config";
import { errorMessage } from "@/lib/db/query-error";

/**
 * Brings the windows of `state` that ended while the call ran (a refresh probe, a slow query across the minute or
 * UTC midnight) up to `now`, read from their counters: the headers are written when the call answers, and a
 * window that is over said how much of it was left and when it would reset, a moment already past (an anonymous
 * caller counted before midnight was told 0 lookups left until a midnight gone by). Windows still running are left
 * as the call found them, so this reads nothing on almost every call. A failed read leaves the state as it was:
 * headers must not turn an answer into a 500.
 */
export async function currentWindows(caller: Caller, state: QuotaState, now: Date = new Date(), db?: Queryable): Promise<void> {
  const ended = (w: { resetAt: Date } | undefined) => w !== undefined && w.resetAt.getTime() <= now.getTime();
  if (!ended(state.burst) && !ended(state.daily) && !ended(state.allowance)) return;
  try {
    const q = db ?? (await getDb());
    if (ended(state.burst)) state.burst = burstWindow(caller, await readCounter(q, burstBucket(caller), windowStart(now, BURST_WINDOW_SECONDS)), now);
    if (!isAnonymous(caller)) return;
    const day = startOfUtcDay(now);
    if (state.daily && ended(state.daily)) {
      state.daily = dailyWindow(await readCounter(q, anonymousAllowanceBucket("lookups", caller.ip), day), now, state.daily.limit);
    }
    const other = state.allowance;
    if (other && ended(other)) {
      state.allowance = { name: other.name, ...dailyWindow(await readCounter(q, anonymousAllowanceBucket(other.name, caller.ip), day), now, other.limit) };
    }
  } catch (err) {
    log.warn("quota windows could not be read again for the headers", { error: errorMessage(err) });
  }
}
