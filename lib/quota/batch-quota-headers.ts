/**
 * The quota headers of an answer that covers several metered calls (an MCP batch): the calls run at once and
 * finish in any order, so the last to finish need not be the last to have counted or paid. The answer says the
 * least that any call left: the rate-limit fields of the call whose window had the fewest requests left (they
 * describe one window together, so they are taken as a set), and the smallest wallet balance seen.
 */
export function mergeBatchQuotaHeaders(kept: Record<string, string> | undefined, next: Record<string, string>): Record<string, string> {
  if (!kept) return next;
  const left = (h: Record<string, string>) => Number(h["x-ratelimit-remaining"] ?? Infinity);
  const merged = left(next) <= left(kept) ? { ...next } : { ...kept };
  const credits = [kept, next].map((h) => h["x-credits-remaining"]).filter((v): v is string => v !== undefined);
  if (credits.length) merged["x-credits-remaining"] = String(Math.min(...credits.map(Number)));
  return merged;
}
