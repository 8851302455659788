import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

export interface FakeRepo {
  owner: string;
  name: string;
  id: number;
  stars: number;
  archived: boolean;
  pushedAt: string | null;
  ownerType: "User" | "Organization";
  /** 200 normal, 404 gone, 451 legal block, 403 ToS block. */
  status: 200 | 404 | 451 | 403;
  /** The repository moved here (owner/name); the old name redirects. */
  renamedTo?: string;
  /** Private: answered as to a token that can see it (the public gets 404). */
  private?: boolean;
}

type Obj = Record<string, any>;
const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers }).end(JSON.stringify(body));

/**
 * GitHub's REST `GET /repos/{owner}/{repo}` (ETag, 301 on renames to
 * /repositories/{id}, 404, 451 and 403 block bodies) and GraphQL with aliased
 * `repository` fields (partial data plus errors[] with NOT_FOUND / FORBIDDEN).
 */
export class FakeGitHub {
  readonly repos = new Map<string, FakeRepo>();
  private byId = new Map<number, FakeRepo>();
  graphqlCalls = 0;
  restCalls = 0;
  /** Aliases asked for in the largest query. */
  maxAliases = 0;

  set(repo: FakeRepo): void {
    this.repos.set(`${repo.owner}/${repo.name}`.toLowerCase(), repo);
    this.byId.set(repo.id, repo);
  }

  private resolve(owner: string, name: string): FakeRepo | null {
    let r = this.repos.get(`${owner}/${name}`.toLowerCase()) ?? null;
    for (let i = 0; r?.renamedTo && i < 5; i++) r = this.repos.get(r.renamedTo.toLowerCase()) ?? null;
    return r;
  }

  private rest(r: FakeRepo): Obj {
    return {
      id: r.id,
      node_id: `R_${r.id}`,
      name: r.name,
      full_name: `${r.owner}/${r.name}`,
      owner: { login: r.owner, id: r.id + 1, type: r.ownerType },
      private: r.private === true,
      visibility: r.private ? "private" : "public",
      fork: false,
      archived: r.archived,
      disabled: false,
      default_branch: "main",
      stargazers_count: r.stars,
      watchers_count: r.stars,
      forks_count: 0,
      pushed_at: r.pushedAt,
      html_url: `https://github.com/${r.owner}/${r.name}`,
    };
  }

  handle(path: string, req: IncomingMessage, res: ServerResponse, body: string, baseUrl: string): boolean {
    const rate = { "x-ratelimit-limit": "5000", "x-ratelimit-remaining": "4999", "x-ratelimit-reset": String(Math.ceil(Date.now() / 1000) + 3600) };
    if (path === "/graphql" && req.method === "POST") {
      this.graphqlCalls++;
      let query = "";
      try {
        query = JSON.parse(body).query ?? "";
      } catch {
        return json(res, 400, { message: "Problems parsing JSON" }), true;
      }
      const data: Obj = { rateLimit: { cost: 1, remaining: 4999, resetAt: new Date(Date.now() + 3_600_000).toISOString() } };
      const errors: Obj[] = [];
      const re = /(r\d+): repository\(owner: ("(?:[^"\\]|\\.)*"), name: ("(?:[^"\\]|\\.)*")\)/g;
      let aliases = 0;
      for (const m of query.matchAll(re)) {
        aliases++;
        const [alias, owner, name] = [m[1], JSON.parse(m[2]) as string, JSON.parse(m[3]) as string];
        const r = this.resolve(owner, name);
        if (!r || r.status === 404) {
          data[alias] = null;
          errors.push({ type: "NOT_FOUND", path: [alias], message: `Could not resolve to a Repository with the name '${owner}/${name}'.` });
        } else if (r.status !== 200) {
          data[alias] = null;
          errors.push({ type: "FORBIDDEN", path: [alias], message: "Repository access blocked" });
        } else {
          data[alias] = {
            databaseId: r.id,
            nameWithOwner: `${r.owner}/${r.name}`,
            stargazerCount: r.stars,
            pushedAt: r.pushedAt,
            isArchived: r.archived,
            isDisabled: false,
            isFork: false,
            isPrivate: r.private === true,
            owner: { __typename: r.ownerType, login: r.owner },
          };
        }
      }
      this.maxAliases = Math.max(this.maxAliases, aliases);
      return json(res, 200, errors.length ? { data, errors } : { data }, rate), true;
    }
    let m = /^\/repos\/([^/]+)\/([^/]+)$/.exec(path);
    const byId = /^\/repositories\/(\d+)$/.exec(path);
    if (!m && !byId) return false;
    this.restCalls++;
    let r: FakeRepo | null;
    if (byId) r = this.byId.get(Number(byId[1])) ?? null;
    else {
      const [owner, name] = [decodeURIComponent(m![1]), decodeURIComponent(m![2])];
      const direct = this.repos.get(`${owner}/${name}`.toLowerCase()) ?? null;
      if (direct?.renamedTo) {
        const target = this.resolve(owner, name);
        if (target) {
          const location = `${baseUrl}/repositories/${target.id}`;
          return json(res, 301, { message: "Moved Permanently", url: location }, { location, ...rate }), true;
        }
      }
      r = direct;
    }
    if (!r || r.status === 404) return json(res, 404, { message: "Not Found", documentation_url: "https://docs.github.com/rest/repos/repos#get-a-repository", status: "404" }, rate), true;
    if (r.status === 451) return json(res, 451, { message: "Repository access blocked", block: { reason: "dmca", created_at: "2025-01-01T00:00:00Z" } }, rate), true;
    if (r.status === 403) return json(res, 403, { message: "Repository access blocked", block: { reason: "tos", created_at: "2025-01-01T00:00:00Z" } }, rate), true;
    const doc = JSON.stringify(this.rest(r));
    const etag = `"${createHash("sha1").update(doc).digest("hex")}"`;
    if (req.headers["if-none-match"] === etag) return res.writeHead(304, { etag, ...rate }).end(), true;
    res.writeHead(200, { "content-type": "application/json; charset=utf-8", etag, ...rate }).end(doc);
    return true;
  }
}
