import { otherMethods } from "@/lib/api/other-methods";
import { withCaller } from "@/lib/api/with-caller";
import { OPERATOR_ROUTE, requireCronSecret } from "@/lib/api/cron-auth";
import { invalidRequest } from "@/lib/api/errors";
import { getDb } from "@/lib/db/client";
import { HARVEST_SOURCES, type SourceName } from "@/lib/harvest/harvest-context";
import { runHarvest, type HarvestOptions } from "@/lib/harvest/run-harvest";
import { errorMessage } from "@/lib/db/query-error";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";
export const maxDuration = 300;

// Leaves a minute of the 300 s limit for the chunk in flight and the response.
const CRON_DEADLINE_MS = 240_000;

function options(url: URL): HarvestOptions {
  const sources = url.searchParams.get("sources");
  const picked = sources ? sources.split(",").map((s) => s.trim()) : undefined;
  if (picked?.some((s) => !(HARVEST_SOURCES as readonly string[]).includes(s))) {
    throw invalidRequest(`sources must be a comma-separated subset of ${HARVEST_SOURCES.join(",")}`);
  }
  const registry = url.searchParams.get("registry");
  if (registry && !["incremental", "full", "none"].includes(registry)) throw invalidRequest("registry must be incremental, full or none");
  const deadline = url.searchParams.get("deadline_ms");
  // as `npm run harvest --deadline-ms` takes it: Number() read "1e3" as 1 s and "1.5" as 1.5 ms, and "abc" or "-5" fell
  // back to the default without a word
  if (deadline !== null && !/^\d+$/.test(deadline)) {
    throw invalidRequest(`deadline_ms must be a whole number of milliseconds, 0 for none (got ${JSON.stringify(deadline)})`);
  }
  return {
    trigger: url.searchParams.get("trigger") === "cli" ? "cli" : "cron",
    sources: picked as SourceName[] | undefined,
    registry: registry === "none" ? false : ((registry as "incremental" | "full" | null) ?? "incremental"),
    deadlineMs: deadline === null ? CRON_DEADLINE_MS : Number(deadline) || undefined,
  };
}

/**
 * One harvest run (Vercel Cron hourly; `npm run harvest` through the embedded
 * server). `?stream=1` answers NDJSON: progress lines, then {"result": …}.
 */
export const GET = withCaller(async ({ req, url }) => {
  requireCronSecret(req);
  const opts = options(url);
  const db = await getDb();
  if (url.searchParams.get("stream") !== "1") return { ok: true, ...(await runHarvest(db, opts)) };
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const line = (v: unknown) => {
        try {
          controller.enqueue(encoder.encode(`${JSON.stringify(v)}\n`));
        } catch {
          // the client went away (Ctrl-C on `npm run harvest`): the run stops at req.signal, not by failing here
        }
      };
      try {
        const result = await runHarvest(db, { ...opts, signal: req.signal, onProgress: (p) => line({ progress: p }) });
        line({ result: { ok: true, ...result } });
      } catch (err) {
        line({ error: errorMessage(err) });
      }
      try {
        controller.close();
      } catch {
        /* already closed by the client going away */
      }
    },
  });
  return new Response(body, { status: 200, headers: { "content-type": "application/x-ndjson", "cache-control": "no-store" } });
}, OPERATOR_ROUTE);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
