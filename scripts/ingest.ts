// `npm run ingest -- --file <dump.json|.json.gz>`   import a registry dump
// `npm run ingest -- [--full]`                      crawl REGISTRY_URL (incremental unless --full)
//
// On the embedded database while the server runs, the work is handed to the
// server (PGlite must not be opened twice); otherwise it runs here.
import fs from "node:fs";
import { readDumpFile } from "@/lib/catalog/read-dump";
import { ingestDump, readObservedAt } from "@/lib/catalog/ingest-dump";
import type { IngestCounts, IngestResult } from "@/lib/catalog/ingest-entries";
import { registryUrl } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import { registryRateLimitText, registryWaitText, syncRegistry } from "@/lib/harvest/sync-registry";
import { RateLimitedError } from "@/lib/sources/http";
import { localServer } from "./lib/local-server";
import { parseArgsOrExit, runJob, withOwnDatabase } from "./lib/run-job";
import { userPath } from "./lib/user-path";

const { values } = parseArgsOrExit({
  options: {
    file: { type: "string" },
    full: { type: "boolean", default: false },
    "observed-at": { type: "string" },
    help: { type: "boolean", short: "h" },
  },
});

if (values.help) {
  console.log("usage: npm run ingest -- --file <dump.json|.json.gz> [--observed-at <ISO time>]\n       npm run ingest -- [--full]");
  process.exit(0);
}

// each option belongs to one of the two forms: one of the other form would be ignored without a word
if (values.file !== undefined && values.full) {
  console.error("invalid arguments: --full crawls the registry and --file imports a dump: give one of them (--help lists the options)");
  process.exit(2);
}
if (values.file === undefined && values["observed-at"] !== undefined) {
  console.error("invalid arguments: --observed-at dates a dump: it goes with --file (--help lists the options)");
  process.exit(2);
}
const file = values.file === undefined ? undefined : userPath(values.file);
const observed = values["observed-at"] === undefined ? undefined : readObservedAt(values["observed-at"]);
if (observed && "problem" in observed) {
  console.error(`--observed-at ${observed.problem}: ${values["observed-at"]}`);
  process.exit(2);
}
const observedAt = observed?.observedAt;
if (file && !fs.existsSync(file)) {
  console.error(`no such file: ${file}`);
  process.exit(2);
}

async function viaServer(): Promise<boolean> {
  const server = localServer();
  if (!server) return false;
  console.log(`the server (pid ${server.pid}) holds the embedded database: sending the work to ${server.url}`);
  const res = file
    ? await server.fetch(
        `/api/cron/ingest?${new URLSearchParams({ origin: file, ...(observedAt ? { observed_at: observedAt.toISOString() } : {}) })}`,
        { method: "POST", body: fs.readFileSync(file) },
      )
    : await server.fetch(`/api/cron/ingest${values.full ? "?mode=full" : ""}`);
  const body = await res.json().catch(() => ({}));
  if (!res.ok) {
    console.error(`ingest failed: ${typeof body.message === "string" ? body.message : `HTTP ${res.status} ${JSON.stringify(body)}`}`);
    process.exit(1);
  }
  if (typeof body.skipped === "string") reportSkipped(body.skipped);
  else console.log(JSON.stringify(body.counts ?? body, null, 2));
  if (body.counts) reportOutcome(body.counts, body.rejects ?? []);
  return true;
}

async function here() {
  await withOwnDatabase(async (db) => {
    const result = file ? await ingestDump(db, await readDumpFile(file), file, observedAt) : await crawl(db);
    if (!result) return;
    console.log(JSON.stringify(result.counts, null, 2));
    reportOutcome(result.counts, result.rejects);
  });
}

/**
 * The registry crawl through the service the cron route uses (syncRegistry), so a job on its own database keeps
 * the registry's cooldown as the server does: it called the crawl directly, asked a registry that had told us to
 * wait, and left no cooldown after a 429 for the next run to keep. Null when the cooldown kept it back.
 */
async function crawl(db: Db): Promise<IngestResult | null> {
  try {
    const mode = values.full ? "full" : "incremental";
    const onProgress = ({ pages, entries }: { pages: number; entries: number }) => console.log(`page ${pages}: ${entries} entries`);
    const result = await syncRegistry(db, { baseUrl: registryUrl(), mode, onProgress }, new Date());
    if (!("skipped" in result)) return result;
    reportSkipped(registryWaitText(result.skipped));
    return null;
  } catch (err) {
    // said as the server's route says it (its cooldown is set)
    if (err instanceof RateLimitedError && err.retryAt) throw new Error(registryRateLimitText(err.retryAt));
    throw err;
  }
}

/** A crawl the registry's cooldown kept back is no failure (a later run syncs): said the same on either path. */
function reportSkipped(why: string): void {
  console.warn(`ingest skipped: ${why}; nothing was sent`);
}

/**
 * Warns about rejected entries; a listing of which not one entry could be read (a file of some other shape, a
 * registry answering in a format we do not know) exits 1, so a scheduled import that keeps nothing fails
 * visibly instead of logging success.
 */
function reportOutcome(counts: Pick<IngestCounts, "entries" | "rejected">, rejects: string[]): void {
  const first = rejects[0] ? `, first: ${rejects[0]}` : "";
  if (counts.entries > 0 && counts.rejected === counts.entries) {
    console.error(`ingest failed: every one of the ${counts.entries} entries was rejected${first}; no server was written or delisted`);
    process.exit(1);
  }
  if (counts.rejected) console.warn(`${counts.rejected} entries rejected${first} (so this listing delisted no server)`);
  else if (!counts.entries) console.warn("the listing has no entries: nothing was written and no server delisted");
}

await runJob("ingest", viaServer, here);
