import { count, isNull } from "drizzle-orm";
import { DatabaseInUseError, driverFor, getDbHandle, pgliteLockHolder } from "@/lib/db/client";
import { errorMessage } from "@/lib/db/query-error";
import { servers } from "@/lib/db/schema";
import { assertUsableEnvironment, bootIngestEnabled, deliverIntervalMs, harvestIntervalMs, maintenanceIntervalMs, registryUrl, siteUrlWarning } from "@/lib/config";
import { ingestFromRegistry } from "@/lib/catalog/ingest-from-registry";
import { log } from "@/lib/log";
import { startDeliveryTimer } from "@/lib/watches/delivery-timer";
import { startHarvestTimer } from "@/lib/harvest/harvest-timer";
import { startMaintenanceTimer } from "./maintenance-timer";
import { localServerUrl, writeLocalServerInfo } from "./local-server-file";

/** How to fill the catalog by hand when the registry cannot be reached. */
export const IMPORT_HINT = "npm run ingest -- --file <registry-dump.json|.json.gz>";

/**
 * A boot that failed (the embedded database open in another process, its disk full, the database unreachable)
 * ends the server with the reason. Next.js does not run register() again: left running, the server went on
 * listening and answered every request, for good, with a plain-text 500, and a supervisor saw nothing to
 * restart. On Vercel the error is rethrown: the platform starts another instance.
 */
export function bootFailed(err: unknown): void {
  log.error("the server cannot start", {
    error: errorMessage(err),
    ...(err instanceof DatabaseInUseError && { fix: "stop that process (another server, or a job), or start this one with its own DATA_DIR" }),
  });
  if (!process.env.VERCEL) process.exit(1);
  throw err;
}

/**
 * Runs once when the server process starts: open and migrate the database, and
 * when the catalog is empty fill it from the registry in the background so the
 * server answers while the crawl runs.
 */
export async function boot(): Promise<void> {
  // a setting it cannot use stops the start, by name (scripts/server.mjs prints it and exits 1), instead of a
  // default or NaN taken without a word
  assertUsableEnvironment();
  const urlWarning = siteUrlWarning();
  if (urlWarning) log.warn("no site address", { problem: urlWarning });
  // Command-line jobs hand their work to the server that holds the embedded database, found by its file. It is
  // written before the database is opened: opening takes seconds (a cluster's creation, the migrations) with
  // its lock already held, and a job started then (`npm start`, then `npm run ingest` at once) found the
  // database held by a process that had not yet said where it listens. The server's routes wait for the
  // database. Not over a live server's own file: that one holds the database, and this opening will fail.
  const { kind, target } = driverFor(process.env.DATABASE_URL);
  const holder = kind === "pglite" ? pgliteLockHolder(target) : null;
  if (kind === "pglite" && (holder === null || holder === process.pid)) {
    writeLocalServerInfo(localServerUrl(process.env.HOSTNAME, process.env.PORT || "3000"));
  }
  const handle = await getDbHandle().catch((err: unknown) => {
    // the lock's own error names the database and the process holding it (bootFailed adds the fix)
    if (err instanceof DatabaseInUseError) throw err;
    throw new Error(`cannot open the database (${kind === "pglite" ? target : "DATABASE_URL"}): ${errorMessage(err)}`, { cause: err });
  });
  log.info("database ready", { location: handle.location });
  // Retention (evaluations are kept 90 days) holds wherever the server runs: Vercel's cron calls
  // /api/cron/maintenance, every other server process runs it itself.
  if (maintenanceIntervalMs() > 0 && !process.env.VERCEL) startMaintenanceTimer(handle.db, maintenanceIntervalMs());
  // Watch notifications: Vercel runs /api/cron/deliver instead of a timer.
  if (deliverIntervalMs() > 0 && !process.env.VERCEL) startDeliveryTimer(handle.db, deliverIntervalMs());
  // Evidence harvest: the embedded default runs it itself (Vercel runs /api/cron/harvest);
  // a Postgres deployment opts in by setting HARVEST_INTERVAL_MS.
  if (harvestIntervalMs() > 0 && !process.env.VERCEL && (handle.kind === "pglite" || process.env.HARVEST_INTERVAL_MS)) {
    startHarvestTimer(handle.db, harvestIntervalMs());
  }
  if (!bootIngestEnabled()) return;
  const [{ n }] = await handle.db.select({ n: count() }).from(servers).where(isNull(servers.delistedAt));
  if (n > 0) {
    log.info("catalog loaded", { servers: n });
    return;
  }
  const baseUrl = registryUrl();
  log.info("catalog is empty: ingesting from the registry in the background", { registry: baseUrl });
  void ingestFromRegistry(handle.db, {
    baseUrl,
    mode: "full",
    onProgress: ({ pages, entries }) => log.info("registry ingest progress", { pages, entries }),
  })
    .then((r) => log.info("registry ingest finished", { ...r.counts }))
    .catch((err) =>
      log.error("registry ingest failed; the service runs with an empty catalog", {
        registry: baseUrl,
        error: errorMessage(err),
        fix: `set REGISTRY_URL to a reachable registry, or import a dump: ${IMPORT_HINT}`,
      }),
    );
}
