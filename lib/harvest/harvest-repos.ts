import { inArray, sql } from "drizzle-orm";
import { FRESHNESS_MS, GITHUB_GRAPHQL_BATCH, githubToken } from "@/lib/config";
import type { Tx } from "@/lib/db/client";
import { repositoryObservations, servers } from "@/lib/db/schema";
import { fetchRepoRest, fetchReposGraphql, GraphqlResourceLimitError, repoKey, type RepoAnswer, type RepoRef } from "@/lib/sources/github";
import { RateLimitedError, StoppedError, type FetchJsonOptions } from "@/lib/sources/http";
import { believableTime } from "@/lib/sources/upstream-time";
import { query, ts } from "./db-helpers";
import { httpFor, SKIPPED, type HarvestContext, type Skipped, type SourceSpec } from "./harvest-context";
import { loadServerEvidence } from "./load-server-evidence";
import { noteFailedCalls, poolRespectingLimits } from "./run-source";
import { detectStateChanges } from "./state-changes";

interface RepoItem extends RepoRef {
  id: number;
  etag: string | null;
  attemptedAt: number | null;
}

const ms = (v: unknown): number | null => (v === null || v === undefined ? null : new Date(v as string).getTime());

/** Repositories on github.com named by a listed server, with their observation times. */
function dueSql(ctx: HarvestContext) {
  const now = ctx.clock();
  return sql`
    select r.id, r.owner, r.name, o.etag, o.attempted_at
    from repositories r
    left join repository_observations o on o.repository_id = r.id
    left join leases l on l.key = 'harvest:repo:' || r.id and l.expires_at > ${ts(now)}
    where r.host = 'github.com' and r.owner is not null and r.name is not null
      and exists (select 1 from servers s where s.repository_id = r.id and s.delisted_at is null)
      and l.key is null
      and (o.observed_at is null or o.observed_at < ${ts(new Date(now.getTime() - FRESHNESS_MS.repo))})
      and (o.attempted_at is null or o.attempted_at < ${ts(ctx.runStart)})`;
}

/** A repository GraphQL said something about (a "fallback" still needs REST), or one a failed part of a split query carried. */
type ChunkAnswer = RepoAnswer | { kind: "fallback"; error: string } | { kind: "unanswered"; error: Error };

async function fetchGraphqlChunk(refs: RepoItem[], http: FetchJsonOptions): Promise<Map<string, ChunkAnswer>> {
  try {
    return (await fetchReposGraphql(refs, http)).answers;
  } catch (err) {
    // GitHub refuses queries it finds too costly: halve and retry (documented practice)
    if (err instanceof GraphqlResourceLimitError && refs.length > 1) {
      const half = Math.ceil(refs.length / 2);
      // the first half failing whole answered nothing: the batch fails as one query would
      const first = await fetchGraphqlChunk(refs.slice(0, half), http);
      // once a part failed (a rate limit, GitHub down) the rest is not asked; what was answered stays answered
      // (a half failing after the other was read lost every repository of the batch)
      const failed = [...first.values()].find((a) => a.kind === "unanswered");
      const second = failed ? unanswered(refs.slice(half), failed.error) : await fetchGraphqlChunk(refs.slice(half), http).catch((e: Error) => unanswered(refs.slice(half), e));
      return new Map([...first, ...second]);
    }
    throw err;
  }
}

const unanswered = (refs: RepoItem[], error: Error) => new Map<string, ChunkAnswer>(refs.map((r) => [repoKey(r), { kind: "unanswered", error }]));

/**
 * The repositories a failed part of a split query carried come to what a whole batch that failed does: given back
 * untouched when the run's stop kept them back, else failed; a rate limit stops the source after this chunk.
 */
function settleUnanswered(ctx: HarvestContext, answers: Map<string, ChunkAnswer>): Map<string, Exclude<ChunkAnswer, { kind: "unanswered" }> | Skipped> {
  const left = [...answers.values()].filter((a) => a.kind === "unanswered");
  const error = left[0]?.error;
  if (error instanceof RateLimitedError) ctx.rateLimits.repo ??= error;
  else if (error && !(error instanceof StoppedError)) noteFailedCalls(ctx, "repo", left.length, error.message);
  return new Map(
    [...answers].map(([k, a]) => [k, a.kind !== "unanswered" ? a : a.error instanceof StoppedError ? SKIPPED : { kind: "error" as const, error: a.error.message }]),
  );
}

export const repoSource: SourceSpec<RepoItem, RepoAnswer> = {
  source: "repo",
  chunkSize: GITHUB_GRAPHQL_BATCH,
  async countDue(ctx) {
    const [row] = await query<{ n: number }>(ctx.db, sql`select count(*)::int as n from (${dueSql(ctx)}) d`);
    return Number(row?.n ?? 0);
  },
  async selectDue(ctx, limit) {
    const rows = await query<{ id: number | string; owner: string; name: string; etag: string | null; attempted_at: unknown }>(
      ctx.db,
      sql`select * from (${dueSql(ctx)}) d order by d.attempted_at asc nulls first, d.id limit ${limit}`,
    );
    return rows.map((r) => ({ id: Number(r.id), owner: r.owner, name: r.name, etag: r.etag, attemptedAt: ms(r.attempted_at) }));
  },
  key: (i) => String(i.id),
  async attemptsNow(ctx, items) {
    const rows = await ctx.db
      .select({ id: repositoryObservations.repositoryId, at: repositoryObservations.attemptedAt })
      .from(repositoryObservations)
      .where(inArray(repositoryObservations.repositoryId, items.map((i) => i.id)));
    return new Map(rows.map((r) => [String(r.id), r.at?.getTime() ?? null]));
  },
  failure: (error) => ({ kind: "error", error }),
  failed: (r) => r.kind === "error",

  /**
   * With a token: one GraphQL query per 100 repositories; REST only for the
   * aliases GraphQL could not classify (blocked: 451 vs 403). Without a token
   * GraphQL is closed, so REST with ETags (304s are free) for each.
   */
  async fetch(ctx, items) {
    const http = httpFor(ctx, "repo");
    const rest = (it: RepoItem) => fetchRepoRest(it, it.etag, http);
    if (!githubToken()) return poolRespectingLimits(ctx, "repo", items, 4, rest, (error) => ({ kind: "error", error }));
    // settled before REST: a rate limit on a part of a split query keeps the fallbacks from being sent
    const answers = settleUnanswered(ctx, await fetchGraphqlChunk(items, http));
    const fallback = items.filter((it) => {
      const a = answers.get(repoKey(it));
      return a !== undefined && a !== SKIPPED && a.kind === "fallback";
    });
    const viaRest = await poolRespectingLimits(ctx, "repo", fallback, 2, (it) => fetchRepoRest(it, null, http), (error) => ({ kind: "error" as const, error }));
    const final = new Map<string, RepoAnswer | Skipped>([...answers].map(([k, v]) => [k, v !== SKIPPED && v.kind === "fallback" ? { kind: "error" as const, error: v.error } : v]));
    fallback.forEach((it, i) => final.set(repoKey(it), viaRest[i]));
    return items.map((it) => final.get(repoKey(it)) ?? { kind: "error", error: "no answer" });
  },

  async write(ctx, tx: Tx, items, results, at) {
    const ids = items.map((i) => i.id);
    const affected = (await tx.select({ id: servers.id }).from(servers).where(inArray(servers.repositoryId, ids))).map((r) => r.id);
    const before = await loadServerEvidence(tx, affected);

    const observed = items.flatMap((it, i) => {
      const r = results[i];
      if (r.kind === "found") {
        const renamed = r.nameWithOwner.toLowerCase() !== `${it.owner}/${it.name}`.toLowerCase() ? r.nameWithOwner : null;
        return [
          {
            repositoryId: it.id,
            exists: true,
            httpStatus: 200,
            archived: r.archived,
            disabled: r.disabled,
            fork: r.fork,
            // a push more than the skew after we observed it has not happened: unknown, as for registry times
            pushedAt: believableTime(r.pushedAt, at),
            stars: r.stars,
            ownerLogin: r.ownerLogin,
            ownerType: r.ownerType,
            renamedTo: renamed,
            hostRepoId: r.hostRepoId,
            etag: r.etag,
            observedAt: at,
            attemptedAt: at,
            lastError: null,
          },
        ];
      }
      return [];
    });
    if (observed.length) {
      await tx
        .insert(repositoryObservations)
        .values(observed)
        .onConflictDoUpdate({
          target: repositoryObservations.repositoryId,
          set: {
            exists: sql`excluded.exists`,
            httpStatus: sql`excluded.http_status`,
            archived: sql`excluded.archived`,
            disabled: sql`excluded.disabled`,
            fork: sql`excluded.fork`,
            pushedAt: sql`excluded.pushed_at`,
            stars: sql`excluded.stars`,
            ownerLogin: sql`excluded.owner_login`,
            ownerType: sql`excluded.owner_type`,
            renamedTo: sql`excluded.renamed_to`,
            hostRepoId: sql`excluded.host_repo_id`,
            etag: sql`excluded.etag`,
            observedAt: sql`excluded.observed_at`,
            attemptedAt: sql`excluded.attempted_at`,
            lastError: sql`null`,
          },
        });
    }
    // Gone (404/410/451/403-blocked): an answer, so an observation; the last
    // known details of the repository are kept beside it.
    const gone = items.flatMap((it, i) => {
      const r = results[i];
      return r.kind === "gone" ? [{ repositoryId: it.id, exists: false, httpStatus: r.httpStatus, observedAt: at, attemptedAt: at, lastError: r.reason }] : [];
    });
    if (gone.length) {
      await tx
        .insert(repositoryObservations)
        .values(gone)
        .onConflictDoUpdate({
          target: repositoryObservations.repositoryId,
          set: { exists: sql`excluded.exists`, httpStatus: sql`excluded.http_status`, observedAt: sql`excluded.observed_at`, attemptedAt: sql`excluded.attempted_at`, lastError: sql`excluded.last_error`, etag: sql`null` },
        });
    }
    // 304: unchanged since the stored answer, which is now confirmed.
    const confirmed = items.filter((_, i) => results[i].kind === "not_modified").map((it) => it.id);
    if (confirmed.length) {
      await tx
        .update(repositoryObservations)
        .set({ observedAt: at, attemptedAt: at, lastError: null })
        .where(inArray(repositoryObservations.repositoryId, confirmed));
    }
    // No answer: only the attempt is recorded; the last good values stay.
    const failed = items.flatMap((it, i) => {
      const r = results[i];
      return r.kind === "error" ? [{ repositoryId: it.id, attemptedAt: at, lastError: r.error.slice(0, 500) }] : [];
    });
    if (failed.length) {
      await tx
        .insert(repositoryObservations)
        .values(failed)
        .onConflictDoUpdate({ target: repositoryObservations.repositoryId, set: { attemptedAt: sql`excluded.attempted_at`, lastError: sql`excluded.last_error` } });
    }
    return await detectStateChanges(tx, before, await loadServerEvidence(tx, affected), at);
  },
};

