import type { Queryable } from "@/lib/db/client";
import { CREDIT_COSTS } from "@/lib/config";
import { READ_CHARGE, type ChargeExtras } from "@/lib/quota";
import { computeTrustScore } from "@/lib/engine/trust-score";
import { loadServerRecordsCached } from "@/lib/facts/record-cache";
import { buildHealthCard } from "@/lib/cards/build-health-card";
import { MATCH_KIND_BY_TIER, type SearchCandidate } from "@/lib/search/find-candidates";
import { findCandidatesCached } from "@/lib/search/candidate-cache";
import { cachedSearch } from "@/lib/search/result-cache";
import type { SearchQuery, SearchResult } from "@/lib/schemas/health-card";

export interface MeteredContext {
  /** Pays for `subject` (lib/api/with-caller.ts `charge`); a repeat the same UTC day is free. */
  charge(subject: string, cost: number, extras?: ChargeExtras): Promise<unknown>;
  now?: Date;
}

/**
 * GET /v1/search and the catalog_search tool: listed servers ranked as a user expects (exact name, then
 * the name part or title, then similar names and titles, then descriptions; typo-tolerant), ties broken by
 * trust score, each result a HealthCard. Costs one credit (or one anonymous lookup) per distinct query a day.
 */
export async function searchServers(db: Queryable, input: SearchQuery, ctx: MeteredContext): Promise<SearchResult> {
  await ctx.charge(searchSubject(input.q), CREDIT_COSTS.search, READ_CHARGE);
  return cachedSearch(db, `${input.limit}\u0000${input.q}`, () => rankServers(db, input, ctx.now ?? new Date()));
}

/**
 * What a search pays for: the query as a person means it. "GitHub" and "github  " are the same query asked
 * again (a free repeat), though the case-sensitive exact-name tier may rank their results a little apart.
 */
export function searchSubject(q: string): string {
  return `search:${q.trim().replace(/\s+/g, " ").toLowerCase()}`;
}

/**
 * The ranking behind searchServers, unmetered: the query's candidates as kept for the current listing
 * (lib/search/candidate-cache.ts), their records as kept for FACTS_CACHE_SECONDS, trust and cards as of `now`.
 */
export async function rankServers(db: Queryable, input: SearchQuery, now: Date): Promise<SearchResult> {
  const candidates = withTiesAtCut(await findCandidatesCached(db, input.q, input.limit), input.limit);
  const records = await loadServerRecordsCached(db, candidates.map((c) => c.name));

  const ranked = candidates
    .flatMap((c) => {
      const r = records.get(c.name);
      return r ? [{ c, r, trust: computeTrustScore(r.facts, now) }] : [];
    })
    .sort((a, b) => b.c.tier - a.c.tier || b.c.relevance - a.c.relevance || b.trust.score - a.trust.score || cmp(a.c.name, b.c.name))
    .slice(0, input.limit);

  const results = ranked.map(({ c, r, trust }) => ({ ...buildHealthCard(r.facts, r.listing, now, trust), match: MATCH_KIND_BY_TIER[c.tier] }));
  return { ok: true, count: results.length, results, query: input.q, limit: input.limit };
}

/**
 * The first `limit` candidates plus every candidate tied with the last of them (same tier and relevance),
 * so that the trust score, not the database's arbitrary order, decides which of a tie make the cut.
 */
export function withTiesAtCut(candidates: SearchCandidate[], limit: number): SearchCandidate[] {
  if (candidates.length <= limit) return candidates;
  const last = candidates[limit - 1];
  let end = limit;
  while (end < candidates.length && candidates[end].tier === last.tier && candidates[end].relevance === last.relevance) end++;
  return candidates.slice(0, end);
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
