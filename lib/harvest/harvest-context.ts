import type { Db, Tx } from "@/lib/db/client";
import type { FetchJsonOptions, RateLimitedError } from "@/lib/sources/http";
import type { ChangeInput } from "./record-changes";
import { storableText } from "@/lib/db/storable-text";

export const HARVEST_SOURCES = ["registry", "repo", "jspkg", "pypkg", "vuln", "liveness"] as const;
export type SourceName = (typeof HARVEST_SOURCES)[number];

export interface SourceCounts {
  /** Items due when the source started. */
  due: number;
  /** Items this run tried (leased and asked upstream). */
  attempted: number;
  /** Attempts that produced an observation. */
  observed: number;
  /** Attempts that did not (upstream error, rate limit, timeout): last good values kept. */
  failed: number;
}

export interface HarvestProgress {
  source: SourceName;
  due: number;
  attempted: number;
  observed: number;
  failed: number;
  calls: number;
}

export interface HarvestContext {
  db: Db;
  holder: string;
  /** Items attempted at or after this instant are not retried in this run. */
  runStart: Date;
  clock: () => Date;
  http: FetchJsonOptions;
  calls: Record<SourceName, number>;
  counts: Record<SourceName, SourceCounts>;
  stopped: Partial<Record<SourceName, string>>;
  errors: { source: SourceName; item: string; error: string }[];
  /** Set by a fetch that was told to stop part-way through a chunk; the loop stops the source after writing. */
  rateLimits: Partial<Record<SourceName, RateLimitedError>>;
  /** Consecutive failed calls per source; past FAILURE_STREAK_LIMIT the source stops for this run. */
  failStreak: Partial<Record<SourceName, number>>;
  tripped: Partial<Record<SourceName, string>>;
  changes: Record<string, number>;
  budget: Record<Exclude<SourceName, "registry">, number>;
  /** Epoch ms after which no new chunk starts, no call is sent or retried and no wait lasts. */
  deadline: number | null;
  signal?: AbortSignal;
  onProgress?: (p: HarvestProgress) => void;
}

/** HTTP options for one source: the run's options, its stop and deadline, plus call accounting. */
export function httpFor(ctx: HarvestContext, source: SourceName): FetchJsonOptions {
  return { ...ctx.http, signal: ctx.signal, deadline: ctx.deadline, onCall: () => void ctx.calls[source]++ };
}

/** The run was told to stop or its deadline passed: no further call starts. */
export function stopping(ctx: HarvestContext): boolean {
  return Boolean(ctx.signal?.aborted) || (ctx.deadline !== null && Date.now() >= ctx.deadline);
}

export const MAX_RUN_ERRORS = 50;

/** After this many failures in a row a source is treated as down for the rest of the run. */
export const FAILURE_STREAK_LIMIT = 20;

/** A fetch result for an item that was not sent (the source stopped first): nothing is written for it. */
export const SKIPPED = Symbol("skipped");
export type Skipped = typeof SKIPPED;

export function noteError(ctx: HarvestContext, source: SourceName, item: string, error: string): void {
  // kept in the run's jsonb: a NUL, or half of a character pair cut at 500, would fail the run's record
  if (ctx.errors.length < MAX_RUN_ERRORS) ctx.errors.push({ source, item: storableText(item), error: storableText(error.slice(0, 500)) });
}

/** What one source plugs into the shared loop (run-source.ts). */
/** Every harvest item carries the attempted_at it had when it was read as due (ms, null: never). */
export interface DueItem {
  attemptedAt: number | null;
}

export interface SourceSpec<I extends DueItem, R> {
  source: Exclude<SourceName, "registry">;
  chunkSize: number;
  /** How many items are due now (for progress). */
  countDue(ctx: HarvestContext): Promise<number>;
  /** Up to `limit` due items, stalest first, not leased by anyone, not attempted in this run. */
  selectDue(ctx: HarvestContext, limit: number): Promise<I[]>;
  key(item: I): string;
  /** attempted_at now (ms) of the items that have an observation row, by key. */
  attemptsNow(ctx: HarvestContext, items: I[]): Promise<Map<string, number | null>>;
  /** Upstream answers in item order. May throw RateLimitedError: the source stops until the reset. */
  fetch(ctx: HarvestContext, items: I[]): Promise<(R | Skipped)[]>;
  /** The answer recorded for every item of a chunk whose fetch threw. */
  failure(error: string): R;
  failed(result: R): boolean;
  /** Writes observations and returns the changes they reveal (recorded in the same transaction). */
  write(ctx: HarvestContext, tx: Tx, items: I[], results: R[], at: Date): Promise<ChangeInput[]>;
}
