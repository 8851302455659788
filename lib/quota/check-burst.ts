import { ApiError } from "@/lib/api/errors";
import {
  ANONYMOUS_DAILY_LOOKUPS,
  BURST_LIMIT_PER_ANONYMOUS_IP,
  BURST_LIMIT_PER_KEY,
  BURST_WINDOW_SECONDS,
} from "@/lib/config";
import { getDb, type Queryable } from "@/lib/db/client";
import { isAnonymous, type Caller, type QuotaState, type WindowState } from "./caller";
import { incrementCounter, readCounter } from "./counters";
import { secondsUntil, startOfNextUtcDay, startOfUtcDay, windowStart } from "./utc";

export function burstBucket(caller: Caller): string {
  return caller.keyId ? `burst:key:${caller.keyId}` : `burst:ip:${caller.ip}`;
}

/** The counter of an anonymous IP's distinct lookups (or another keyless allowance) per UTC day. */
export function anonymousAllowanceBucket(allowance: string, ip: string): string {
  return `${allowance}:ip:${ip}`;
}

export function burstLimit(caller: Caller): number {
  return isAnonymous(caller) ? BURST_LIMIT_PER_ANONYMOUS_IP : BURST_LIMIT_PER_KEY;
}

export function dailyWindow(used: number, now: Date, limit = ANONYMOUS_DAILY_LOOKUPS): WindowState {
  return { limit, remaining: Math.max(0, limit - used), resetAt: startOfNextUtcDay(now), windowSeconds: 86_400 };
}

/**
 * Counts this request in the caller's burst window (per key, or per anonymous
 * IP) and throws 429 rate_limited past the limit, with retry_after in seconds.
 * For anonymous callers it also reads today's lookup allowance for the headers.
 * `state` is filled in place (and returned) so the headers can be sent on the 429 too.
 */
export async function checkBurst(
  caller: Caller,
  state: QuotaState = {},
  opts: { db?: Queryable; now?: Date } = {},
): Promise<QuotaState> {
  const db = opts.db ?? (await getDb());
  const now = opts.now ?? new Date();
  const start = windowStart(now, BURST_WINDOW_SECONDS);
  const resetAt = new Date(start.getTime() + BURST_WINDOW_SECONDS * 1000);
  const limit = burstLimit(caller);
  const [count, dailyUsed] = await Promise.all([
    incrementCounter(db, burstBucket(caller), start),
    isAnonymous(caller)
      ? readCounter(db, anonymousAllowanceBucket("lookups", caller.ip), startOfUtcDay(now))
      : Promise.resolve(null),
  ]);
  state.burst = { limit, remaining: Math.max(0, limit - count), resetAt, windowSeconds: BURST_WINDOW_SECONDS };
  if (dailyUsed !== null) state.daily = dailyWindow(dailyUsed, now);
  if (count > limit) {
    throw new ApiError(
      "rate_limited",
      `burst limit reached: ${limit} requests per ${BURST_WINDOW_SECONDS} seconds ${caller.keyId ? "per key" : "per client IP without a key"}`,
      { retryAfter: secondsUntil(resetAt, now), resetAt },
    );
  }
  return state;
}
