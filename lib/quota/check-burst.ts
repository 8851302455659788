import { ApiError } from "@/lib/api/errors";
import {
  ANONYMOUS_DAILY_LOOKUPS,
  BURST_LIMIT_PER_ANONYMOUS_IP,
  BURST_LIMIT_PER_KEY,
  BURST_WINDOW_SECONDS,
} from "@/lib/config";
import { getDb, type Queryable } from "@/lib/db/client";
import { ASYNC_COMMIT_COLUMN, ASYNC_COMMIT_CTE, runStatement } from "./run-statement";
import { isAnonymous, type Caller, type KeylessAllowance, type QuotaState, type WindowState } from "./caller";
import { quotaHeaders } from "./quota-headers";
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

export function burstWindow(caller: Caller, count: number, now: Date): WindowState {
  const limit = burstLimit(caller);
  const start = windowStart(now, BURST_WINDOW_SECONDS);
  const resetAt = new Date(start.getTime() + BURST_WINDOW_SECONDS * 1000);
  return { limit, remaining: Math.max(0, limit - count), resetAt, windowSeconds: BURST_WINDOW_SECONDS };
}

/** The 429 of a full burst window; it carries the quota headers, since the caller is known by now. */
export function burstExceeded(caller: Caller, state: QuotaState, now: Date): ApiError {
  const { limit, resetAt } = burstWindow(caller, 0, now);
  state.refusedBy = "burst";
  return new ApiError(
    "rate_limited",
    `burst limit reached: ${limit} requests per ${BURST_WINDOW_SECONDS} seconds ${caller.keyId ? "per key" : "per client IP without a key"}`,
    { retryAfter: secondsUntil(resetAt, now), resetAt, headers: quotaHeaders(caller, state, now) },
  );
}

export function dailyWindow(used: number, now: Date, limit = ANONYMOUS_DAILY_LOOKUPS): WindowState {
  return { limit, remaining: Math.max(0, limit - used), resetAt: startOfNextUtcDay(now), windowSeconds: 86_400 };
}

/**
 * Counts this request in the caller's burst window (per key, or per anonymous
 * IP) and throws 429 rate_limited past the limit, with retry_after in seconds.
 * For anonymous callers the same statement reads today's use of the allowance
 * the route spends (`opts.allowance`, else the daily lookups) for the headers.
 * `state` is filled in place (and returned) so the headers can be sent on the
 * 429 too. (admitCaller folds this into the key lookup for keys.)
 */
export async function checkBurst(
  caller: Caller,
  state: QuotaState = {},
  opts: { db?: Queryable; now?: Date; allowance?: KeylessAllowance } = {},
): Promise<QuotaState> {
  const db = opts.db ?? (await getDb());
  const now = opts.now ?? new Date();
  const start = windowStart(now, BURST_WINDOW_SECONDS).toISOString();
  const other = opts.allowance && opts.allowance.name !== "lookups" ? opts.allowance : undefined;
  const daily = isAnonymous(caller) ? anonymousAllowanceBucket(other?.name ?? "lookups", caller.ip) : "";
  const [row] = await runStatement<Row>(db, "burst", BURST_SQL, [
    burstBucket(caller),
    start,
    daily,
    startOfUtcDay(now).toISOString(),
  ]);
  const count = Number(row.burst_count);
  state.burst = burstWindow(caller, count, now);
  // a route spending another allowance (the config audit) describes that one from the start: its refusals before
  // the charge (400, 413) would otherwise show the 10 lookups, which it never spends, as what is left
  if (isAnonymous(caller)) {
    const used = Number(row.daily_used ?? 0);
    if (other) state.allowance = { name: other.name, ...dailyWindow(used, now, other.limit) };
    else state.daily = dailyWindow(used, now);
  }
  if (count > burstLimit(caller)) throw burstExceeded(caller, state, now);
  return state;
}

// $1 burst bucket, $2 window start, $3 daily allowance bucket ('' for keys), $4 UTC day start
// Committed without waiting for the disk, as the key's admission (lib/quota/resolve-caller.ts ADMIT_KEY_SQL).
const BURST_SQL = `
  with ${ASYNC_COMMIT_CTE}, burst as (
    insert into quota_counters (bucket, window_start, count)
    values ($1, $2::timestamptz, 1)
    on conflict (bucket, window_start) do update set count = quota_counters.count + 1
    returning count
  )
  select (select count from burst) as burst_count,
         (select count from quota_counters where bucket = $3 and window_start = $4::timestamptz) as daily_used,
         ${ASYNC_COMMIT_COLUMN}`;

interface Row {
  burst_count: number | string;
  daily_used: number | string | null;
}
