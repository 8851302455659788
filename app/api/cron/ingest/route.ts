import { otherMethods } from "@/lib/api/other-methods";
import { withCaller } from "@/lib/api/with-caller";
import { OPERATOR_ROUTE, requireCronSecret } from "@/lib/api/cron-auth";
import { readBinaryBody } from "@/lib/api/request";
import { getDb } from "@/lib/db/client";
import { registryUrl } from "@/lib/config";
import { ingestDump, readObservedAt } from "@/lib/catalog/ingest-dump";
import { parseDump } from "@/lib/catalog/read-dump";
import { ApiError, invalidRequest } from "@/lib/api/errors";
import { registryRateLimitText, registryWaitText, syncRegistry } from "@/lib/harvest/sync-registry";
import { RateLimitedError, UpstreamError } from "@/lib/sources/http";
import { IMPORT_HINT } from "@/lib/boot/boot";
import { secondsUntil } from "@/lib/quota/utc";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";
export const maxDuration = 300;

/**
 * Incremental registry sync (a full one when the catalog has never synced). It keeps the harvester's registry
 * cooldown: while the registry has asked us to wait, nothing is sent; a rate limit starts one (429 here).
 */
export const GET = withCaller(async ({ req, url }) => {
  requireCronSecret(req);
  const modeParam = url.searchParams.get("mode");
  // a typo (`fulll`) ran an incremental sync the operator did not ask for, answered as a success
  if (modeParam !== null && modeParam !== "full" && modeParam !== "incremental") {
    throw invalidRequest(`mode must be full or incremental (default: incremental): ${modeParam}`);
  }
  const mode = modeParam === "full" ? "full" : "incremental";
  const now = new Date();
  try {
    const result = await syncRegistry(await getDb(), { baseUrl: registryUrl(), mode }, now);
    if ("skipped" in result) return { ok: true, skipped: registryWaitText(result.skipped) };
    return { ok: true, ...result };
  } catch (err) {
    // the operator (`npm run ingest`, a cron log) needs to know the registry failed and what to do about it, not a
    // request id: a run on its own database says the same
    if (err instanceof UpstreamError && !(err instanceof RateLimitedError && err.retryAt)) {
      throw new ApiError("internal_error", `the registry could not be read: ${err.message}; set REGISTRY_URL to a reachable registry, or import a dump: ${IMPORT_HINT}`);
    }
    if (!(err instanceof RateLimitedError && err.retryAt)) throw err;
    throw new ApiError("rate_limited", registryRateLimitText(err.retryAt), {
      retryAfter: secondsUntil(err.retryAt, now),
      resetAt: err.retryAt,
    });
  }
}, OPERATOR_ROUTE);

/** A registry dump posted by `npm run ingest -- --file` while the server holds the embedded database. */
export const POST = withCaller(async ({ req, url }) => {
  requireCronSecret(req);
  const observedAtParam = url.searchParams.get("observed_at");
  // an Invalid Date would reach the first timestamp write and fail there as a 500
  const observed = observedAtParam ? readObservedAt(observedAtParam) : undefined;
  if (observed && "problem" in observed) throw invalidRequest(`observed_at ${observed.problem}: ${observedAtParam}`);
  const observedAt = observed?.observedAt;
  const bytes = await readBinaryBody(req, 512 * 1024 * 1024);
  let entries: unknown[];
  try {
    entries = parseDump(bytes);
  } catch (err) {
    throw invalidRequest(`not a registry dump: ${(err as Error).message}`);
  }
  const origin = url.searchParams.get("origin") || "upload";
  const result = await ingestDump(await getDb(), entries, origin, observedAt);
  return { ok: true, ...result };
}, OPERATOR_ROUTE);

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET", "POST");
