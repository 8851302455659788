import { eq, sql } from "drizzle-orm";
import { HARVEST_CALL_BUDGET, registryUrl } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import { harvestRuns } from "@/lib/db/schema";
import { errorMessage } from "@/lib/db/query-error";
import { syncRegistry } from "./sync-registry";
import { storableJson } from "@/lib/db/storable-text";
import { RateLimitedError, type FetchJsonOptions } from "@/lib/sources/http";
import { HARVEST_SOURCES, httpFor, noteError, type HarvestContext, type HarvestProgress, type SourceCounts, type SourceName } from "./harvest-context";
import { purgeExpiredLeases } from "./leases";
import { closeAbandonedRuns, runHolder } from "./close-abandoned-runs";
import { runSource } from "./run-source";
import { repoSource } from "./harvest-repos";
import { jspkgSource, pypkgSource } from "./harvest-packages";
import { vulnSource } from "./harvest-vulns";
import { livenessSource } from "./harvest-liveness";

export interface HarvestOptions {
  trigger: "cron" | "cli" | "timer" | "test" | "bench";
  /** Which sources to run, in this order; default all. */
  sources?: SourceName[];
  /** Registry step: an incremental crawl (full when the catalog never synced), a full one, or none. */
  registry?: "incremental" | "full" | false;
  /** Stop starting new chunks after this many ms (the cron route's time limit). */
  deadlineMs?: number;
  budget?: Partial<HarvestContext["budget"]>;
  http?: FetchJsonOptions;
  clock?: () => Date;
  signal?: AbortSignal;
  onProgress?: (p: HarvestProgress) => void;
}

export interface HarvestResult {
  runId: number;
  status: "succeeded" | "partial" | "failed";
  counts: Record<SourceName, SourceCounts>;
  calls: Record<SourceName, number>;
  stopped: Partial<Record<SourceName, string>>;
  errors: HarvestContext["errors"];
  changes: Record<string, number>;
  durationMs: number;
}

const SPECS = { repo: repoSource, jspkg: jspkgSource, pypkg: pypkgSource, vuln: vulnSource, liveness: livenessSource } as const;

/**
 * One harvest run: the registry listing first (so new servers' items are due),
 * then repositories, packages, vulnerabilities (after packages, which resolve
 * unpinned versions) and liveness, each stalest-first within its budget. The
 * run is recorded in harvest_runs with its counts, calls and errors.
 */
export async function runHarvest(db: Db, opts: HarvestOptions): Promise<HarvestResult> {
  const clock = opts.clock ?? (() => new Date());
  const startedAt = clock();
  const t0 = Date.now();
  const holder = runHolder();
  const zero = (): SourceCounts => ({ due: 0, attempted: 0, observed: 0, failed: 0 });
  const ctx: HarvestContext = {
    db,
    holder,
    runStart: startedAt,
    clock,
    http: opts.http ?? {},
    calls: Object.fromEntries(HARVEST_SOURCES.map((s) => [s, 0])) as Record<SourceName, number>,
    counts: Object.fromEntries(HARVEST_SOURCES.map((s) => [s, zero()])) as Record<SourceName, SourceCounts>,
    stopped: {},
    errors: [],
    rateLimits: {},
    failStreak: {},
    tripped: {},
    changes: {},
    budget: { ...HARVEST_CALL_BUDGET, ...opts.budget },
    deadline: opts.deadlineMs ? t0 + opts.deadlineMs : null,
    signal: opts.signal,
    onProgress: opts.onProgress,
  };
  await closeAbandonedRuns(db, startedAt);
  const [run] = await db.insert(harvestRuns).values({ trigger: opts.trigger, holder, status: "running", startedAt }).returning({ id: harvestRuns.id });
  const sources = opts.sources ?? [...HARVEST_SOURCES];
  let failure: Error | null = null;
  // the step running when the run fails, which its record (and coverage) names: the run's own set-up counts as the
  // registry step, the first
  let step: SourceName = "registry";
  try {
    await purgeExpiredLeases(db, clock());
    if (sources.includes("registry") && opts.registry !== false) await registryStep(ctx, opts.registry ?? "incremental");
    await refreshPlannerStatistics(db);
    for (const s of sources) {
      if (s === "registry") continue;
      step = s;
      await runSource(ctx, SPECS[s] as never);
    }
  } catch (err) {
    failure = err as Error;
  }
  const status: HarvestResult["status"] = failure ? "failed" : Object.keys(ctx.stopped).length || ctx.errors.length ? "partial" : "succeeded";
  if (failure) {
    noteError(ctx, step, "run", errorMessage(failure));
    ctx.stopped[step] = `failed: ${errorMessage(failure).slice(0, 500)}`;
  }
  await db
    .update(harvestRuns)
    // why a source stopped quotes upstream errors: stored as jsonb, they must be storable (storable-text.ts)
    .set({ status, finishedAt: clock(), counts: ctx.counts, calls: ctx.calls, stopped: storableJson(ctx.stopped), errors: ctx.errors, changes: ctx.changes })
    .where(eq(harvestRuns.id, run.id));
  if (failure) throw failure;
  return { runId: run.id, status, counts: ctx.counts, calls: ctx.calls, stopped: ctx.stopped, errors: ctx.errors, changes: ctx.changes, durationMs: Date.now() - t0 };
}

async function registryStep(ctx: HarvestContext, mode: "incremental" | "full"): Promise<void> {
  try {
    const r = await syncRegistry(
      ctx.db,
      {
        baseUrl: registryUrl(),
        mode,
        // without the run's deadline: the crawl is all-or-nothing and comes first, and cut at the deadline it would
        // be lost whole (its own retries and waits are bounded: UPSTREAM_MAX_RETRIES, maxRetryAfterMs)
        http: { ...httpFor(ctx, "registry"), deadline: null },
        onProgress: ({ entries }) => ctx.onProgress?.({ source: "registry", due: 0, attempted: entries, observed: 0, failed: 0, calls: ctx.calls.registry }),
      },
      ctx.clock(),
    );
    if ("skipped" in r) {
      ctx.stopped.registry = `cooldown until ${r.skipped.until.toISOString()} (${r.skipped.reason})`;
      return;
    }
    ctx.counts.registry.attempted = 1;
    ctx.counts.registry.observed = r.counts.entries;
    // the listing's own records: counting the change table's new rows would take in those another run or an
    // ingest wrote meanwhile
    for (const [kind, n] of Object.entries(r.changesByKind)) ctx.changes[kind] = (ctx.changes[kind] ?? 0) + n;
  } catch (err) {
    // the crawl is all-or-nothing: the catalog is unchanged and the next run retries (a rate limit's
    // cooldown is already set)
    ctx.counts.registry.attempted = 1;
    ctx.counts.registry.failed = 1;
    noteError(ctx, "registry", registryUrl(), errorMessage(err));
    if (err instanceof RateLimitedError && err.retryAt) ctx.stopped.registry = `rate limited until ${err.retryAt.toISOString()}`;
  }
}

/**
 * The due queries join the catalog with observation and lease tables that a
 * run fills from empty; without fresh statistics (PGlite has no autovacuum)
 * the planner keeps plans made for empty tables and a chunk's query slows from
 * milliseconds to seconds. Postgres skips tables we do not own, harmlessly.
 * server_versions too: every due query and evidence read picks each server's
 * described version from it (lib/facts/described-version.ts). Never analyzed,
 * it is guessed at some 240 versions a server, and the evidence read of a
 * 1,000-look-up OSV chunk was costed high enough for Postgres to JIT-compile
 * it, ~0.4 s before and again after every chunk's write for a 40 ms query.
 */
async function refreshPlannerStatistics(db: Db): Promise<void> {
  try {
    await db.execute(
      sql.raw(
        "analyze servers, server_versions, server_packages, server_remotes, repositories, repository_observations, package_observations, vuln_observations, remote_observations, leases",
      ),
    );
  } catch {
    /* statistics are an optimisation */
  }
}
