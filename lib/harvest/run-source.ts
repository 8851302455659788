import { HARVEST_LEASE_MS } from "@/lib/config";
import { RateLimitedError, StoppedError } from "@/lib/sources/http";
import { noteCatalogWrite } from "@/lib/cache/db-memo";
import { cooldownUntil, setCooldown } from "./cooldowns";
import { FAILURE_STREAK_LIMIT, httpFor, noteError, SKIPPED, stopping, type DueItem, type HarvestContext, type Skipped, type SourceSpec } from "./harvest-context";
import { claimItems, leaseKey, releaseItems } from "./leases";
import { lockChanges, recordChanges } from "./record-changes";

/** Due items read per query; chunks are taken from this window. */
const SELECT_WINDOW = 5_000;

/**
 * The loop every source shares: take the stalest due items a chunk at a time,
 * lease them, ask upstream, and write the answers and the changes they reveal
 * in one transaction per chunk, until nothing is due, the budget or deadline
 * is reached, or the upstream says stop. Each chunk is durable on its own, so a
 * run can stop anywhere and the next one resumes with what is still due.
 */
export async function runSource<I extends DueItem, R>(ctx: HarvestContext, spec: SourceSpec<I, R>): Promise<void> {
  const { source } = spec;
  const counts = ctx.counts[source];
  const cooling = await cooldownUntil(ctx.db, source, ctx.clock());
  if (cooling) {
    ctx.stopped[source] = `cooldown until ${cooling.until.toISOString()} (${cooling.reason})`;
    return;
  }
  counts.due = await spec.countDue(ctx);
  const progress = () => ctx.onProgress?.({ source, ...counts, calls: ctx.calls[source] });
  progress();
  let window: I[] = [];
  for (;;) {
    if (ctx.signal?.aborted) {
      ctx.stopped[source] = "aborted";
      return;
    }
    if (ctx.deadline !== null && Date.now() >= ctx.deadline) {
      ctx.stopped[source] = "deadline";
      return;
    }
    if (ctx.calls[source] >= ctx.budget[source]) {
      ctx.stopped[source] = "budget";
      return;
    }
    // The due list is read a window at a time (one query, not one per chunk);
    // items another run attempted since then are dropped once claimed.
    if (!window.length) {
      window = await spec.selectDue(ctx, SELECT_WINDOW);
      if (!window.length) return;
    }
    const items = window.splice(0, spec.chunkSize);
    const keyOf = (i: I) => leaseKey(source, spec.key(i));
    const claimed = await claimItems(ctx.db, items.map(keyOf), ctx.holder, HARVEST_LEASE_MS, ctx.clock());
    let mine = items.filter((i) => claimed.has(keyOf(i)));
    if (!mine.length) continue;
    // another run may have harvested an item between our read and our claim
    const nowAttempts = await spec.attemptsNow(ctx, mine);
    const touched = new Set(mine.filter((i) => (nowAttempts.get(spec.key(i)) ?? null) !== i.attemptedAt).map((i) => spec.key(i)));
    if (touched.size) {
      await releaseItems(ctx.db, mine.filter((i) => touched.has(spec.key(i))).map(keyOf), ctx.holder);
      mine = mine.filter((i) => !touched.has(spec.key(i)));
      if (!mine.length) continue;
    }

    let answers: (R | Skipped)[];
    let rateLimited: RateLimitedError | null = null;
    try {
      answers = await spec.fetch(ctx, mine);
    } catch (err) {
      const msg = (err as Error).message;
      if (err instanceof RateLimitedError) rateLimited = err;
      // A batch call (GraphQL, OSV querybatch) that failed after its retries failed every item it carried: the
      // same breaker as one call per item, or a down upstream would cost one retried call per chunk and use up
      // the run's deadline before the sources after it start.
      else if (!(err instanceof StoppedError)) noteFailedCalls(ctx, source, mine.length, msg);
      // one the run's stop or deadline kept from being sent or retried got no answer: its items go back untouched
      answers = mine.map(() => (err instanceof StoppedError ? SKIPPED : spec.failure(msg)));
    }
    // a call the run's own stop cut short (its client gone, the server stopping) is no answer from upstream: the
    // item is given back untouched, not recorded as an upstream failure
    if (ctx.signal?.aborted) answers = answers.map((r) => (r !== SKIPPED && spec.failed(r) ? SKIPPED : r));
    // items the source stopped before sending are given back untouched
    const skipped = mine.filter((_, i) => answers[i] === SKIPPED);
    if (skipped.length) await releaseItems(ctx.db, skipped.map(keyOf), ctx.holder);
    const sent = mine.filter((_, i) => answers[i] !== SKIPPED);
    const results = answers.filter((r): r is R => r !== SKIPPED);
    const at = ctx.clock();
    if (sent.length) {
      try {
        await ctx.db.transaction(async (tx) => {
          await lockChanges(tx);
          const found = await spec.write(ctx, tx, sent, results, at);
          const rows = await recordChanges(tx, found);
          for (const r of rows) ctx.changes[r.kind] = (ctx.changes[r.kind] ?? 0) + 1;
        });
      } catch (err) {
        // the run ends here; its items go back now, not when their leases expire (until then no run takes them)
        await releaseItems(ctx.db, mine.map(keyOf), ctx.holder).catch(() => {});
        throw err;
      }
      noteCatalogWrite(ctx.db);
    }
    rateLimited ??= ctx.rateLimits[source] ?? null;
    sent.forEach((item, i) => {
      counts.attempted++;
      if (spec.failed(results[i])) {
        counts.failed++;
        noteError(ctx, source, spec.key(item), String((results[i] as { error?: string }).error ?? "failed"));
      } else counts.observed++;
    });
    // leases only keep runs apart while a chunk is in flight; once written, an
    // item is either no longer due or (failed) free for the next run to retry
    await releaseItems(ctx.db, sent.map(keyOf), ctx.holder);
    progress();
    if (rateLimited) {
      await setCooldown(ctx.db, source, rateLimited.retryAt!, rateLimited.message, ctx.clock());
      ctx.stopped[source] = `rate limited until ${rateLimited.retryAt!.toISOString()}`;
      return;
    }
    if (ctx.tripped[source]) {
      ctx.stopped[source] = `upstream failing: ${ctx.tripped[source]}`;
      return;
    }
  }
}

/**
 * Runs `fn` over items with at most `n` in flight, results in item order. When
 * one call is rate limited, FAILURE_STREAK_LIMIT calls in a row fail, or the
 * run is told to stop or reaches its deadline, the rest are not sent (SKIPPED:
 * nothing is written for them) and the loop stops the source after writing
 * what was answered, instead of hammering it.
 */
export async function poolRespectingLimits<T, R extends { kind: string }>(
  ctx: HarvestContext,
  source: keyof HarvestContext["calls"],
  items: T[],
  n: number,
  fn: (item: T) => Promise<R>,
  failure: (error: string) => R,
): Promise<(R | Skipped)[]> {
  return pool(items, n, async (item): Promise<R | Skipped> => {
    if (ctx.rateLimits[source] || ctx.tripped[source] || stopping(ctx)) return SKIPPED;
    let r: R;
    try {
      r = await fn(item);
    } catch (err) {
      // not sent, or not retried, for the run's stop or deadline: given back untouched
      if (err instanceof StoppedError) return SKIPPED;
      if (err instanceof RateLimitedError) ctx.rateLimits[source] ??= err;
      r = failure((err as Error).message);
    }
    if (r.kind === "error") noteFailedCalls(ctx, source, 1, (r as unknown as { error: string }).error);
    else ctx.failStreak[source] = 0;
    return r;
  });
}

/** A run of failures means the upstream is down: past FAILURE_STREAK_LIMIT in a row, stop asking it until the next run. */
export function noteFailedCalls(ctx: HarvestContext, source: keyof HarvestContext["calls"], n: number, error: string): void {
  const streak = (ctx.failStreak[source] = (ctx.failStreak[source] ?? 0) + n);
  if (streak >= FAILURE_STREAK_LIMIT) ctx.tripped[source] ??= `${streak} failures in a row, last: ${error}`;
}

/** Runs `fn` over items with at most `n` in flight, results in item order. */
export async function pool<T, R>(items: T[], n: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(n, items.length)) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]);
      }
    }),
  );
  return out;
}

export { httpFor };
