import { and, asc, desc, eq, gt, inArray, lt, max, type SQL } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { changes, servers, type ChangeRow } from "@/lib/db/schema";
import { ApiError } from "@/lib/api/errors";
import type { ChangeFeedQuery, ChangeFeedResponse } from "@/lib/schemas/changes";
import type { ChangeKind } from "@/lib/harvest/record-changes";

const CURSOR_PREFIX = "c1.";

/**
 * The feed cursor: opaque to clients, base64url of `c1.<change id>`. Change ids
 * grow in commit order (recordChanges serialises its writers), so "after this
 * cursor" never skips a change that committed late.
 */
export function encodeChangeCursor(changeId: number): string {
  return Buffer.from(`${CURSOR_PREFIX}${changeId}`).toString("base64url");
}

const notIssued = (param: string, why = "") => {
  const message = `not a cursor this feed issued${why} (use next_cursor from an earlier page, or leave ${param} out)`;
  // the issue lets the changes page say it of its "Older changes" link (app/changes/filter-refusal.ts)
  return new ApiError("invalid_request", `${param}: ${message}`, { issues: [{ code: "not_issued", path: [param], message }] });
};

/** The change id a cursor stands for; a malformed cursor is a 400. */
export function decodeChangeCursor(cursor: string, param = "since"): number {
  const bad = () => notIssued(param);
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw bad();
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  const m = /^c1\.(0|[1-9]\d{0,15})$/.exec(text);
  if (!m || encodeChangeCursor(Number(m[1])) !== cursor) throw bad();
  const id = Number(m[1]);
  if (!Number.isSafeInteger(id)) throw bad();
  return id;
}

/**
 * Ids only grow and changes are never deleted, so a cursor past the newest change was never issued: a
 * poller holding one would silently skip every change up to it. Refused instead (400).
 */
async function assertIssued(db: Db, id: number, param: string): Promise<void> {
  if (id === 0) return;
  const [row] = await db.select({ newest: max(changes.id) }).from(changes);
  if (id > Number(row?.newest ?? 0) + (param === "before" ? 1 : 0)) throw notIssued(param, ", it is past the newest change");
}

const toChange = (c: ChangeRow) => ({
  id: c.id,
  kind: c.kind as ChangeKind,
  server_name: c.serverName,
  observed_at: c.observedAt.toISOString(),
  before: (c.before ?? null) as ChangeFeedResponse["changes"][number]["before"],
  after: (c.after ?? null) as ChangeFeedResponse["changes"][number]["after"],
});

/** The optional filters (kind, one server) as one condition; the server goes through changes_server_idx. */
function filterOf(db: Db, query: ChangeFeedQuery): SQL | undefined {
  const parts: SQL[] = [];
  if (query.kind) parts.push(inArray(changes.kind, query.kind));
  if (query.server_name !== undefined) {
    parts.push(inArray(changes.serverId, db.select({ id: servers.id }).from(servers).where(eq(servers.name, query.server_name))));
  }
  return parts.length ? and(...parts) : undefined;
}

/**
 * GET /v1/changes: every server's observed transitions, oldest first within a
 * page, optionally of some kinds or of one server. With `since`, the changes
 * after that cursor; without it, the newest page (so a new poller starts from
 * now, then follows next_cursor). An empty page keeps the cursor it was asked
 * with, so polling it again is always safe. Pages read without `since` also
 * carry `older_cursor`, and `before=<older_cursor>` reads the page older than
 * them: how a person browses the feed back in time.
 */
export async function listChanges(db: Db, query: ChangeFeedQuery): Promise<ChangeFeedResponse> {
  const filter = filterOf(db, query);
  if (query.since === undefined) {
    const before = query.before === undefined ? undefined : decodeChangeCursor(query.before, "before");
    if (before !== undefined) await assertIssued(db, before, "before");
    const rows = await db
      .select()
      .from(changes)
      .where(and(before === undefined ? undefined : lt(changes.id, before), filter))
      .orderBy(desc(changes.id))
      .limit(query.limit + 1);
    const page = rows.slice(0, query.limit).reverse();
    const older = rows.length > query.limit ? encodeChangeCursor(page[0].id) : null;
    if (before === undefined) {
      const last = page.at(-1)?.id ?? 0;
      return { ok: true, changes: page.map(toChange), next_cursor: encodeChangeCursor(last), has_more: false, older_cursor: older };
    }
    const last = page.at(-1)?.id ?? Math.max(before - 1, 0);
    const [later] = await db.select({ id: changes.id }).from(changes).where(and(gt(changes.id, last), filter)).limit(1);
    return { ok: true, changes: page.map(toChange), next_cursor: encodeChangeCursor(last), has_more: !!later, older_cursor: older };
  }
  const after = decodeChangeCursor(query.since);
  const rows = await db
    .select()
    .from(changes)
    .where(and(gt(changes.id, after), filter))
    .orderBy(asc(changes.id))
    .limit(query.limit + 1);
  if (rows.length === 0) await assertIssued(db, after, "since");
  const page = rows.slice(0, query.limit);
  return {
    ok: true,
    changes: page.map(toChange),
    next_cursor: encodeChangeCursor(page.at(-1)?.id ?? after),
    has_more: rows.length > query.limit,
  };
}
