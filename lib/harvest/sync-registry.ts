import type { Db } from "@/lib/db/client";
import { ingestFromRegistry, type RegistryIngestOptions } from "@/lib/catalog/ingest-from-registry";
import type { IngestResult } from "@/lib/catalog/ingest-entries";
import { RateLimitedError } from "@/lib/sources/http";
import { cooldownUntil, setCooldown } from "./cooldowns";

/**
 * A registry crawl that keeps the registry's cooldown, for every caller (the harvest run, the sync's cron
 * route): while the registry has asked us to wait nothing is sent and the cooldown comes back as `skipped`; a
 * rate limit starts a cooldown and is rethrown. The crawl is all-or-nothing (ingestFromRegistry).
 */
export async function syncRegistry(
  db: Db,
  opts: RegistryIngestOptions,
  now: Date,
): Promise<IngestResult | { skipped: { until: Date; reason: string } }> {
  const cooling = await cooldownUntil(db, "registry", now);
  if (cooling) return { skipped: cooling };
  try {
    return await ingestFromRegistry(db, opts);
  } catch (err) {
    if (err instanceof RateLimitedError && err.retryAt) await setCooldown(db, "registry", err.retryAt, err.message, now);
    throw err;
  }
}

/** What the operator is told of a sync the cooldown kept back: by the cron route and by `npm run ingest` alike. */
export const registryWaitText = ({ until, reason }: { until: Date; reason: string }) => `the registry asked us to wait until ${until.toISOString()} (${reason})`;

/** What the operator is told of a sync the registry rate limited (its cooldown is set): by every caller alike. */
export const registryRateLimitText = (retryAt: Date) => `the registry is rate limiting us; no sync until ${retryAt.toISOString()}`;
