import { and, desc, eq, max } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { registrySyncs, serverVersions } from "@/lib/db/schema";
import { listRegistryServers } from "@/lib/sources/registry";
import type { FetchJsonOptions } from "@/lib/sources/http";
import { ingestEntries, type IngestResult } from "./ingest-entries";
import { failureText } from "@/lib/db/storable-text";

export interface RegistryIngestOptions {
  baseUrl: string;
  /** full: the whole listing (delists missing names); incremental: updated_since the newest row we hold. */
  mode: "full" | "incremental";
  latestOnly?: boolean;
  onProgress?: (p: { pages: number; entries: number }) => void;
  http?: FetchJsonOptions;
}

/**
 * Crawls the registry's list API and writes the listing. The whole crawl is read
 * before anything is written, so a crawl that fails half-way changes nothing
 * and is recorded as a failed sync with the reason.
 */
export async function ingestFromRegistry(db: Db, opts: RegistryIngestOptions): Promise<IngestResult> {
  const startedAt = new Date();
  const updatedSince = opts.mode === "incremental" ? await incrementalCursor(db) : null;
  const entries: unknown[] = [];
  let pages = 0;
  try {
    for await (const page of listRegistryServers(opts.baseUrl, { updatedSince, latestOnly: opts.latestOnly }, opts.http)) {
      pages++;
      entries.push(...page.entries);
      opts.onProgress?.({ pages, entries: entries.length });
    }
  } catch (err) {
    await db.insert(registrySyncs).values({
      source: "api",
      origin: opts.baseUrl,
      complete: updatedSince === null,
      status: "failed",
      startedAt,
      finishedAt: new Date(),
      updatedSince,
      entries: entries.length,
      pages,
      error: failureText(err),
    });
    throw err;
  }
  return ingestEntries(db, entries, {
    source: "api",
    origin: opts.baseUrl,
    complete: updatedSince === null,
    observedAt: startedAt,
    updatedSince,
    pages,
  });
}

/** Allowance for the registry's clock running behind ours (its updatedAt against our sync start). */
const REGISTRY_CLOCK_MARGIN_MS = 10 * 60_000;

/**
 * Where an incremental crawl starts: the newest registry update we hold, but never after the start of the
 * last successful crawl of the API. A row updated on a page that crawl had already read, while it read later
 * pages (whose newer updates it stored), is older than the newest update held: starting from that would skip
 * it for good. Starting from the crawl's start re-reads a little; writing the same rows again changes nothing.
 */
async function incrementalCursor(db: Db): Promise<Date | null> {
  const [[held], [crawl]] = await Promise.all([
    db.select({ newest: max(serverVersions.registryUpdatedAt) }).from(serverVersions),
    db
      // an API sync's observed_at is when its crawl began (ingestFromRegistry's startedAt)
      .select({ crawledFrom: registrySyncs.observedAt })
      .from(registrySyncs)
      .where(and(eq(registrySyncs.status, "succeeded"), eq(registrySyncs.source, "api")))
      .orderBy(desc(registrySyncs.id))
      .limit(1),
  ]);
  const newest = held?.newest ?? null;
  if (!newest || !crawl?.crawledFrom) return newest;
  const crawlStart = new Date(crawl.crawledFrom.getTime() - REGISTRY_CLOCK_MARGIN_MS);
  return crawlStart < newest ? crawlStart : newest;
}

/** The newest sync of any kind, for the home page and the coverage report. */
export async function latestSync(db: Db) {
  const [row] = await db.select().from(registrySyncs).orderBy(desc(registrySyncs.id)).limit(1);
  return row ?? null;
}

export async function latestSuccessfulSync(db: Db) {
  const [row] = await db
    .select()
    .from(registrySyncs)
    .where(eq(registrySyncs.status, "succeeded"))
    .orderBy(desc(registrySyncs.id))
    .limit(1);
  return row ?? null;
}
