import { DELIVERY_RETRY_BASE_MS, DELIVERY_RETRY_MAX_DELAY_MS, DELIVERY_RETRY_WINDOW_MS } from "@/lib/config";

/** The wait after the n-th failed attempt (n ≥ 1): 30 s doubling, at most 6 h. */
export function retryDelayMs(failedAttempts: number): number {
  return Math.min(DELIVERY_RETRY_BASE_MS * 2 ** Math.max(0, failedAttempts - 1), DELIVERY_RETRY_MAX_DELAY_MS);
}

/**
 * When to try a delivery again after a failed attempt at `now`, or null to give
 * up. Retries run for 24 h from when the event was queued: the last one falls
 * on the 24 h mark, so the schedule from a first attempt at 0 is 30 s, 1.5 min,
 * 3.5 min, … 8.5 h, 14.5 h, 20.5 h, 24 h (14 attempts). An event that waited
 * behind a failing one in its watch's queue gets at least one attempt.
 */
export function nextAttemptAfterFailure(queuedAt: Date, failedAttempts: number, now: Date): Date | null {
  const deadline = queuedAt.getTime() + DELIVERY_RETRY_WINDOW_MS;
  if (now.getTime() >= deadline) return null;
  return new Date(Math.min(now.getTime() + retryDelayMs(failedAttempts), deadline));
}
