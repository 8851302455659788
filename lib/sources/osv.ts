import { OSV_BATCH, osvApiUrl } from "@/lib/config";
import { normalizePypiName } from "./pypi";
import { upstreamRequest, UpstreamError, type FetchJsonOptions } from "./http";
import { parseUpstreamTime } from "./upstream-time";

export interface OsvQuery {
  ecosystem: string; // our word: jspkg | pypkg
  name: string;
  version: string;
}

export interface OsvHit {
  id: string;
  modified: string | null;
}

/** Ecosystem strings are exact and case-sensitive on OSV. */
export const OSV_ECOSYSTEM: Record<string, string> = { jspkg: "npm", pypkg: "PyPI" };

const osvPackage = (q: OsvQuery) => ({
  ecosystem: OSV_ECOSYSTEM[q.ecosystem],
  // npm names are compared exactly; PyPI names PEP 503-normalised
  name: q.ecosystem === "pypkg" ? normalizePypiName(q.name) : q.name,
});

type Obj = Record<string, any>;

/** One query's answer: every id OSV lists for it, or why its answer is incomplete. */
export type OsvBatchResult = { hits: OsvHit[] } | { error: UpstreamError };

/**
 * POST /v1/querybatch with at most 1,000 queries; results come back in query
 * order, `{}` for no match. Queries whose result carries next_page_token are
 * re-sent alone with their token until exhausted. The first request failing
 * throws (no query was answered); a follow-up failing fails only the queries
 * it carried: the others were answered whole by then.
 */
export async function osvQueryBatch(queries: OsvQuery[], http: FetchJsonOptions = {}): Promise<OsvBatchResult[]> {
  if (queries.length > OSV_BATCH) throw new Error(`querybatch takes at most ${OSV_BATCH} queries`);
  // OSV answers a query without a version with every advisory of the package, whatever version is listed
  const versionless = queries.find((q) => !q.version.trim());
  if (versionless) throw new Error(`querybatch: no version to look ${versionless.name} up at`);
  const out: OsvBatchResult[] = queries.map(() => ({ hits: [] }));
  let pending: { index: number; token?: string }[] = queries.map((_, index) => ({ index }));
  for (let round = 0; pending.length && round < 20; round++) {
    try {
      pending = await queryRound(queries, pending, out, http);
    } catch (err) {
      // the first round answered nothing; a later one leaves the queries already read whole answered (a 1,000-query
      // batch lost every look-up to one page-token request that failed)
      if (round === 0 || !(err instanceof UpstreamError)) throw err;
      for (const p of pending) out[p.index] = { error: err };
      return out;
    }
  }
  for (const p of pending) out[p.index] = { error: new UpstreamError("OSV querybatch: page tokens did not end", 200) };
  return out;
}

/** One querybatch request for the pending queries: their hits added to `out`; the queries still holding a page token. */
async function queryRound(queries: OsvQuery[], pending: { index: number; token?: string }[], out: OsvBatchResult[], http: FetchJsonOptions) {
  const body = { queries: pending.map((p) => ({ package: osvPackage(queries[p.index]), version: queries[p.index].version, ...(p.token ? { page_token: p.token } : {}) })) };
  const url = `${osvApiUrl()}/v1/querybatch`;
  const res = await upstreamRequest(url, { ...http, method: "POST", body: JSON.stringify(body), json: true });
  if (res.status !== 200) throw new UpstreamError(`${url}: HTTP ${res.status} ${res.text.slice(0, 200)}`, res.status);
  const results = (res.body as Obj)?.results;
  if (!Array.isArray(results) || results.length !== pending.length) throw new UpstreamError(`${url}: ${pending.length} queries, ${Array.isArray(results) ? results.length : "no"} results`, 200);
  const unreadable = results.findIndex((r) => !readableResult(r));
  // a result we cannot read is no answer: skipped, it would say "no advisories" for a version OSV may list some for
  if (unreadable >= 0) throw new UpstreamError(`${url}: result ${unreadable + 1} is not a list of vulnerability ids: ${JSON.stringify(results[unreadable])?.slice(0, 200)}`, 200);
  const next: typeof pending = [];
  results.forEach((r: Obj, i: number) => {
    const { index } = pending[i];
    const hits = (out[index] as { hits: OsvHit[] }).hits;
    for (const v of r.vulns ?? []) hits.push({ id: v.id, modified: v.modified ?? null });
    if (r.next_page_token) next.push({ index, token: r.next_page_token });
  });
  return next;
}

/**
 * One querybatch result as OSV answers it: `{}` for no match, else `vulns` a list of `{id, modified}` and maybe a
 * `next_page_token`. Anything else (null, `vulns` not a list, an entry without an id, a token that is no string)
 * says nothing we can read about the version: not "no advisories".
 */
function readableResult(r: unknown): r is { vulns?: { id: string; modified?: string | null }[]; next_page_token?: string | null } {
  if (!r || typeof r !== "object" || Array.isArray(r)) return false;
  const { vulns, next_page_token: token } = r as Obj;
  if (vulns !== undefined && vulns !== null && !(Array.isArray(vulns) && vulns.every((v) => typeof v?.id === "string" && v.id))) return false;
  return token === undefined || token === null || typeof token === "string";
}

export interface OsvRecord {
  id: string;
  modified: Date | null;
  summary: string | null;
  severity: string | null;
  aliases: string[];
  withdrawn: Date | null;
}

function severityOf(v: Obj): string | null {
  const word = v.database_specific?.severity;
  if (typeof word === "string" && word) return word.toUpperCase();
  const s = Array.isArray(v.severity) ? v.severity.find((x: Obj) => typeof x?.score === "string") : null;
  return s ? String(s.score) : null;
}

/** GET /v1/vulns/{id}; null when OSV does not know the id (404). */
export async function osvGetVuln(id: string, http: FetchJsonOptions = {}): Promise<OsvRecord | null> {
  const url = `${osvApiUrl()}/v1/vulns/${encodeURIComponent(id)}`;
  const res = await upstreamRequest(url, { ...http, json: true });
  if (res.status === 404) return null;
  if (res.status !== 200) throw new UpstreamError(`${url}: HTTP ${res.status}`, res.status);
  const v = res.body as Obj;
  if (!v || typeof v.id !== "string") throw new UpstreamError(`${url}: not an OSV record`, 200);
  return {
    id: v.id,
    modified: parseUpstreamTime(v.modified),
    summary: typeof v.summary === "string" ? v.summary : typeof v.details === "string" ? v.details.slice(0, 200) : null,
    severity: severityOf(v),
    aliases: Array.isArray(v.aliases) ? v.aliases.filter((a: unknown) => typeof a === "string") : [],
    withdrawn: parseUpstreamTime(v.withdrawn),
  };
}
