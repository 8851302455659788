/** UTC calendar helpers: days and months are UTC everywhere in quotas (contract Limits). */

/** `YYYY-MM-DD` of the UTC day containing `now`. */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

export function startOfUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

export function startOfNextUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

/** `YYYY-MM-01` of the UTC month containing `now`. */
export function utcMonthStart(now: Date): string {
  return `${now.toISOString().slice(0, 7)}-01`;
}

export function startOfNextUtcMonth(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

/** Start of the fixed window of `seconds` containing `now`. */
export function windowStart(now: Date, seconds: number): Date {
  const ms = seconds * 1000;
  return new Date(Math.floor(now.getTime() / ms) * ms);
}

/** Whole seconds from `now` until `then`, at least 1 (Retry-After is delta-seconds, never ms). */
export function secondsUntil(then: Date, now: Date): number {
  return Math.max(1, Math.ceil((then.getTime() - now.getTime()) / 1000));
}
