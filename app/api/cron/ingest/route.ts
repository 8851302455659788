import { withCaller } from "@/lib/api/with-caller";
import { requireCronSecret } from "@/lib/api/cron-auth";
import { readBinaryBody } from "@/lib/api/request";
import { getDb } from "@/lib/db/client";
import { registryUrl } from "@/lib/config";
import { ingestFromRegistry } from "@/lib/catalog/ingest-from-registry";
import { ingestDump } from "@/lib/catalog/ingest-dump";
import { parseDump } from "@/lib/catalog/read-dump";
import { invalidRequest } from "@/lib/api/errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";
export const maxDuration = 300;

/** Incremental registry sync (a full one when the catalog has never synced). */
export const GET = withCaller(async ({ req, url }) => {
  requireCronSecret(req);
  const mode = url.searchParams.get("mode") === "full" ? "full" : "incremental";
  const result = await ingestFromRegistry(await getDb(), { baseUrl: registryUrl(), mode });
  return { ok: true, ...result };
});

/** A registry dump posted by `npm run ingest -- --file` while the server holds the embedded database. */
export const POST = withCaller(async ({ req, url }) => {
  requireCronSecret(req);
  const bytes = await readBinaryBody(req, 512 * 1024 * 1024);
  let entries: unknown[];
  try {
    entries = parseDump(bytes);
  } catch (err) {
    throw invalidRequest(`not a registry dump: ${(err as Error).message}`);
  }
  const origin = url.searchParams.get("origin") || "upload";
  const observedAt = url.searchParams.get("observed_at");
  const result = await ingestDump(await getDb(), entries, origin, observedAt ? new Date(observedAt) : undefined);
  return { ok: true, ...result };
});
