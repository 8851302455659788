import { githubApiUrl, githubGraphqlUrl, githubToken } from "@/lib/config";
import { githubRateLimitWaitMs, parseStorableJson, RateLimitedError, upstreamRequest, type FetchJsonOptions } from "./http";
import { parseUpstreamTime } from "./upstream-time";

export interface RepoRef {
  owner: string;
  name: string;
}

/** What the code host said about one repository. */
export type RepoAnswer =
  | {
      kind: "found";
      httpStatus: 200;
      nameWithOwner: string;
      hostRepoId: string | null;
      archived: boolean;
      disabled: boolean;
      fork: boolean;
      pushedAt: Date | null;
      stars: number | null;
      ownerLogin: string | null;
      ownerType: string | null;
      etag: string | null;
    }
  /**
   * 404/410 (deleted or never existed), 451 (legal block), 403 with a `block` object (ToS); a private repository
   * the token can see is answered as the public gets it, 404.
   */
  | { kind: "gone"; httpStatus: number; reason: string }
  | { kind: "not_modified"; etag: string }
  /** No answer about this repository (the item is retried on a later run). */
  | { kind: "error"; error: string };

export const repoKey = (r: RepoRef) => `${r.owner}/${r.name}`.toLowerCase();

function headers(extra: Record<string, string> = {}): Record<string, string> {
  const token = githubToken();
  return {
    accept: "application/vnd.github+json",
    "x-github-api-version": "2022-11-28",
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    ...extra,
  };
}

const GRAPHQL_FIELDS = `fragment R on Repository {
  databaseId nameWithOwner stargazerCount pushedAt isArchived isDisabled isFork isPrivate
  owner { __typename login }
}`;

/** One query for up to 100 repositories: aliased `repository` fields cost 1 point together. */
export function buildRepoQuery(refs: RepoRef[]): string {
  const fields = refs.map((r, i) => `  r${i}: repository(owner: ${JSON.stringify(r.owner)}, name: ${JSON.stringify(r.name)}) { ...R }`);
  return `query {\n  rateLimit { cost remaining resetAt }\n${fields.join("\n")}\n}\n${GRAPHQL_FIELDS}`;
}

type Obj = Record<string, any>;

/**
 * The evidence is public: a private (or internal) repository the operator's token can see is one the public
 * gets a 404 on, and is recorded as such, nothing of it kept.
 */
const privateRepo = (): RepoAnswer => ({ kind: "gone", httpStatus: 404, reason: "private: not visible to the public" });

function fromGraphql(node: Obj): RepoAnswer {
  if (node.isPrivate === true) return privateRepo();
  return {
    kind: "found",
    httpStatus: 200,
    nameWithOwner: String(node.nameWithOwner),
    hostRepoId: node.databaseId != null ? String(node.databaseId) : null,
    archived: Boolean(node.isArchived),
    disabled: Boolean(node.isDisabled),
    fork: Boolean(node.isFork),
    pushedAt: parseUpstreamTime(node.pushedAt),
    stars: typeof node.stargazerCount === "number" ? node.stargazerCount : null,
    ownerLogin: node.owner?.login ?? null,
    ownerType: node.owner?.__typename ?? null,
    etag: null,
  };
}

export interface GraphqlBatchResult {
  /** Keyed by repoKey. A "fallback" entry needs REST to tell 404, 451 and blocked apart. */
  answers: Map<string, RepoAnswer | { kind: "fallback"; error: string }>;
  remaining: number | null;
  resetAt: Date | null;
}

export class GraphqlResourceLimitError extends Error {}

/**
 * GitHub GraphQL, up to 100 repositories per query. Renames are followed by
 * GitHub (compare nameWithOwner); a NOT_FOUND alias means the repository is
 * gone; any other null alias is left for the REST fallback. A rate limit,
 * primary or secondary (a 403 with Retry-After or saying so), throws
 * RateLimitedError, as on REST.
 */
export async function fetchReposGraphql(refs: RepoRef[], http: FetchJsonOptions = {}): Promise<GraphqlBatchResult> {
  const res = await upstreamRequest(githubGraphqlUrl(), {
    ...http,
    method: "POST",
    body: JSON.stringify({ query: buildRepoQuery(refs) }),
    headers: headers(http.headers),
    json: true,
    githubRateLimits: true,
  });
  if (res.status !== 200) throw new Error(`GitHub GraphQL: HTTP ${res.status} ${res.text.slice(0, 200)}`);
  const body = res.body as Obj;
  const data = (body?.data ?? null) as Obj | null;
  const errors = (Array.isArray(body?.errors) ? body.errors : []) as Obj[];
  const rl = data?.rateLimit as Obj | undefined;
  const resetAt = parseUpstreamTime(rl?.resetAt);
  if (errors.some((e) => e.type === "RATE_LIMITED" || e.type === "RATE_LIMIT") || (!data && res.headers.get("x-ratelimit-remaining") === "0")) {
    const reset = Number(res.headers.get("x-ratelimit-reset"));
    const until = resetAt ?? (Number.isFinite(reset) && reset > 0 ? new Date(reset * 1000) : new Date(Date.now() + 60_000));
    throw new RateLimitedError(`GitHub GraphQL rate limit (until ${until.toISOString()})`, 200, until);
  }
  if (!data) {
    const msg = errors.map((e) => e.message).join("; ") || "no data";
    // GraphQL may answer a secondary limit with HTTP 200 (upstream-apis.md §2.3): the same rule as its 403 form
    const wait = githubRateLimitWaitMs({ status: 403, headers: res.headers }, msg);
    if (wait !== undefined) {
      const until = new Date(Date.now() + wait);
      throw new RateLimitedError(`GitHub GraphQL secondary rate limit (until ${until.toISOString()}): ${msg.slice(0, 200)}`, 200, until);
    }
    if (/resource limits/i.test(msg)) throw new GraphqlResourceLimitError(msg);
    throw new Error(`GitHub GraphQL: ${msg.slice(0, 300)}`);
  }
  const errorByAlias = new Map<string, Obj>();
  for (const e of errors) if (Array.isArray(e.path) && typeof e.path[0] === "string") errorByAlias.set(e.path[0], e);
  const answers: GraphqlBatchResult["answers"] = new Map();
  refs.forEach((ref, i) => {
    const alias = `r${i}`;
    const node = data[alias];
    const err = errorByAlias.get(alias);
    // a node without its name is no repository we can read (stored, it would be one renamed to "undefined")
    if (node && typeof node === "object" && typeof node.nameWithOwner === "string" && node.nameWithOwner) answers.set(repoKey(ref), fromGraphql(node));
    else if (node) answers.set(repoKey(ref), { kind: "fallback", error: `not a repository: ${JSON.stringify(node).slice(0, 200)}` });
    else if (err?.type === "NOT_FOUND") answers.set(repoKey(ref), { kind: "gone", httpStatus: 404, reason: "not found" });
    else answers.set(repoKey(ref), { kind: "fallback", error: err ? `${err.type ?? "error"}: ${err.message ?? ""}` : "null in answer" });
  });
  return { answers, remaining: typeof rl?.remaining === "number" ? rl.remaining : null, resetAt };
}

/**
 * GitHub REST GET /repos/{owner}/{repo} with If-None-Match: a 304 costs no
 * primary rate limit. Redirects (renames, 301 to /repositories/{id}) are followed.
 */
export async function fetchRepoRest(ref: RepoRef, etag: string | null, http: FetchJsonOptions = {}): Promise<RepoAnswer> {
  const url = `${githubApiUrl()}/repos/${encodeURIComponent(ref.owner)}/${encodeURIComponent(ref.name)}`;
  const res = await upstreamRequest(url, { ...http, headers: headers({ ...(etag ? { "if-none-match": etag } : {}), ...http.headers }), githubRateLimits: true });
  if (res.status === 304) return { kind: "not_modified", etag: etag! };
  let body: Obj | null = null;
  try {
    body = parseStorableJson(res.text) as Obj | null;
  } catch {
    body = null;
  }
  if (res.status === 200) {
    if (!body || typeof body.full_name !== "string") return { kind: "error", error: `${url}: malformed JSON` };
    if (body.private === true || (typeof body.visibility === "string" && body.visibility !== "public")) return privateRepo();
    return {
      kind: "found",
      httpStatus: 200,
      nameWithOwner: body.full_name,
      hostRepoId: body.id != null ? String(body.id) : null,
      archived: Boolean(body.archived),
      disabled: Boolean(body.disabled),
      fork: Boolean(body.fork),
      pushedAt: parseUpstreamTime(body.pushed_at),
      stars: typeof body.stargazers_count === "number" ? body.stargazers_count : null,
      ownerLogin: body.owner?.login ?? null,
      ownerType: body.owner?.type ?? null,
      etag: res.headers.get("etag"),
    };
  }
  if (res.status === 404 || res.status === 410) return { kind: "gone", httpStatus: res.status, reason: "not found" };
  if (res.status === 451) return { kind: "gone", httpStatus: 451, reason: `blocked: ${body?.block?.reason ?? "legal"}` };
  if (res.status === 403 && body?.block) return { kind: "gone", httpStatus: 403, reason: `blocked: ${body.block.reason ?? "unavailable"}` };
  return { kind: "error", error: `${url}: HTTP ${res.status}` };
}
