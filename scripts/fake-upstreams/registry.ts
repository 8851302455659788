import type { IncomingMessage, ServerResponse } from "node:http";

type Obj = Record<string, any>;
const OFFICIAL = "io.modelcontextprotocol.registry/official";

/** A registry row in the current `{server, _meta}` envelope (flat 2025-09 rows are converted). */
export function toEnvelope(entry: Obj): Obj {
  if (entry.server) return entry;
  const { status, _meta, ...server } = entry;
  const official = { ...(_meta?.[OFFICIAL] ?? {}) };
  delete official.serverId;
  delete official.versionId;
  if (status !== undefined) official.status = status;
  const publisher = Object.fromEntries(Object.entries(_meta ?? {}).filter(([k]) => k !== OFFICIAL));
  return { server: Object.keys(publisher).length ? { ...server, _meta: publisher } : server, _meta: { [OFFICIAL]: official } };
}

const official = (e: Obj): Obj => e._meta?.[OFFICIAL] ?? {};

/**
 * The list endpoint of the MCP registry as its Postgres implementation behaves:
 * rows ordered by (name, version), keyset cursor "name:version", a nextCursor
 * whenever the page is full, version=latest, updated_since (strictly greater, and
 * then deleted rows included), limit 1..100.
 */
export class FakeRegistry {
  private rows: Obj[] = [];
  /** Every request URL, for tests that count upstream calls. */
  readonly requests: string[] = [];
  /** Called before each list request is answered (with how many came before): tests change rows mid-crawl. */
  beforeAnswer?: (served: number) => void;

  /** Changes one listed row in place (its envelope: `server` and `_meta`). */
  update(name: string, change: (envelope: Obj) => void): void {
    for (const row of this.rows) if (row.server.name === name) change(row);
  }

  load(entries: Obj[]): this {
    this.rows = entries.map(toEnvelope).sort((a, b) => {
      const ka = [a.server.name, a.server.version ?? ""];
      const kb = [b.server.name, b.server.version ?? ""];
      return ka[0] < kb[0] ? -1 : ka[0] > kb[0] ? 1 : ka[1] < kb[1] ? -1 : ka[1] > kb[1] ? 1 : 0;
    });
    return this;
  }

  handle(req: IncomingMessage, res: ServerResponse): boolean {
    const url = new URL(req.url ?? "/", "http://fake");
    if (!/^\/v0(\.1)?\/servers$/.test(url.pathname)) return false;
    this.beforeAnswer?.(this.requests.length);
    this.requests.push(url.pathname + url.search);
    const send = (status: number, body: unknown, type = "application/json") => {
      res.writeHead(status, { "content-type": type });
      res.end(JSON.stringify(body));
    };
    const limit = Number(url.searchParams.get("limit") ?? 30);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
      return send(422, { title: "Unprocessable Entity", status: 422, detail: "limit must be between 1 and 100" }, "application/problem+json"), true;
    }
    const since = url.searchParams.get("updated_since");
    const sinceMs = since ? Date.parse(since) : null;
    if (since && Number.isNaN(sinceMs)) {
      return send(400, { title: "Bad Request", status: 400, detail: "Invalid updated_since format" }, "application/problem+json"), true;
    }
    const includeDeleted = sinceMs !== null || url.searchParams.get("include_deleted") === "true";
    const version = url.searchParams.get("version");
    const cursor = url.searchParams.get("cursor");
    let after: [string, string] | null = null;
    if (cursor) {
      const i = cursor.lastIndexOf(":");
      after = [cursor.slice(0, i), cursor.slice(i + 1)];
    }
    const page: Obj[] = [];
    for (const row of this.rows) {
      const name = row.server.name as string;
      const ver = (row.server.version ?? "") as string;
      if (after && (name < after[0] || (name === after[0] && ver <= after[1]))) continue;
      const o = official(row);
      if (!includeDeleted && o.status === "deleted") continue;
      if (version === "latest" ? !o.isLatest : version ? ver !== version : false) continue;
      if (sinceMs !== null && !(Date.parse(o.updatedAt ?? "") > sinceMs)) continue;
      page.push(row);
      if (page.length === limit) break;
    }
    const last = page.at(-1);
    const metadata: Obj = { count: page.length };
    if (page.length >= limit && last) metadata.nextCursor = `${last.server.name}:${last.server.version ?? ""}`;
    send(200, { servers: page, metadata });
    return true;
  }
}
