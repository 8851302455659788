import type { Metadata } from "next";
import { getDb } from "@/lib/db/client";
import { ApiError } from "@/lib/api/errors";
import { parseWith } from "@/lib/api/request";
import { changeFeedQuerySchema, type ChangeFeedResponse } from "@/lib/schemas/changes";
import { listChanges } from "@/lib/services/list-changes";
import { CHANGE_KINDS } from "@/lib/harvest/record-changes";
import { ChangeRow } from "@/app/_components/change-row";
import { changesFilterRefusal } from "./filter-refusal";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Changes", description: "Observed transitions of every MCP server in the catalog: new servers, remotes down and up, health, verified, security." };

const PAGE_SIZE = 50;

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) || undefined;

/** GET /v1/changes, readable: the same query schema and listChanges the API uses, newest first, browsed back by cursor. */
export default async function ChangesPage({ searchParams }: Props) {
  const sp = await searchParams;
  const kind = one(sp.kind);
  const serverName = one(sp.server_name);
  const before = one(sp.before);
  let feed: ChangeFeedResponse | null = null;
  let error: string | null = null;
  const asked = { limit: String(PAGE_SIZE), kind, server_name: serverName, before };
  try {
    feed = await listChanges(await getDb(), parseWith(changeFeedQuerySchema, asked));
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    error = changesFilterRefusal(err, asked);
  }
  const link = (extra: Record<string, string | undefined>) => {
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries({ kind, server_name: serverName, ...extra })) if (v) p.set(k, v);
    const s = p.toString();
    return s ? `/changes?${s}` : "/changes";
  };
  const apiQuery = new URLSearchParams(Object.entries({ kind, server_name: serverName, before }).filter((e): e is [string, string] => !!e[1]));
  return (
    <>
      <h1>Changes</h1>
      <p>
        Transitions the harvester observed, newest first. Poll the same feed with <code>GET /v1/changes?since=&lt;cursor&gt;</code> (hourly is
        plenty), or watch one server to be told by webhook or e-mail.
      </p>
      <form method="get" action="/changes" className="pager" aria-label="Filter changes">
        <div>
          <label htmlFor="kind">Kind</label>{" "}
          <select id="kind" name="kind" defaultValue={kind ?? ""}>
            <option value="">every kind</option>
            {/* the feed takes a comma-separated list too (or a kind it refuses, next to the refusal): shown as asked,
                not as "every kind" over filtered rows, and kept by the next Filter */}
            {kind && !(CHANGE_KINDS as readonly string[]).includes(kind) && <option value={kind}>{kind}</option>}
            {CHANGE_KINDS.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="server_name">Server</label>{" "}
          <input id="server_name" name="server_name" defaultValue={serverName ?? ""} placeholder="io.github.owner/name" size={28} />
        </div>
        <button type="submit">Filter</button>
        {(kind || serverName) && <a href="/changes">Clear filters</a>}
      </form>
      {error && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
      {feed && feed.changes.length === 0 && <p data-testid="changes-empty">No change matches{kind || serverName ? " these filters" : " yet"}.</p>}
      {feed && feed.changes.length > 0 && (
        <div className="table-wrap" tabIndex={0} role="region" aria-label="Changes table">
          <table className="data" data-testid="changes">
            <caption>
              {feed.changes.length} change{feed.changes.length === 1 ? "" : "s"}
              {before ? ", older page" : ", newest first"}
            </caption>
            <thead>
              <tr>
                <th scope="col">Observed</th>
                <th scope="col">Kind</th>
                <th scope="col">Server</th>
                <th scope="col">Before → after</th>
              </tr>
            </thead>
            <tbody>
              {[...feed.changes].reverse().map((c) => (
                <ChangeRow key={c.id} change={c} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav className="pager" aria-label="Pages">
        {before && <a href={link({})}>Newest changes</a>}
        {feed?.older_cursor && (
          <a href={link({ before: feed.older_cursor })} rel="next" data-testid="older">
            Older changes
          </a>
        )}
      </nav>
      <p className="small muted">
        This page as JSON: <a href={`/v1/changes?${apiQuery}&limit=${PAGE_SIZE}`}>GET /v1/changes?{apiQuery.toString()}{apiQuery.size ? "&" : ""}limit={PAGE_SIZE}</a>
      </p>
    </>
  );
}
