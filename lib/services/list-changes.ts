import { asc, desc, gt } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { changes, type ChangeRow } from "@/lib/db/schema";
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

/** The change id a cursor stands for; a malformed cursor is a 400. */
export function decodeChangeCursor(cursor: string): number {
  const bad = () => new ApiError("invalid_request", "since: not a cursor this feed issued (use next_cursor from an earlier page, or leave since out)");
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw bad();
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  const m = /^c1\.(0|[1-9]\d{0,15})$/.exec(text);
  if (!m || encodeChangeCursor(Number(m[1])) !== cursor) throw bad();
  const id = Number(m[1]);
  if (!Number.isSafeInteger(id)) throw bad();
  return id;
}

const toChange = (c: ChangeRow) => ({
  id: c.id,
  kind: c.kind as ChangeKind,
  server_name: c.serverName,
  observed_at: c.observedAt.toISOString(),
  before: (c.before ?? null) as ChangeFeedResponse["changes"][number]["before"],
  after: (c.after ?? null) as ChangeFeedResponse["changes"][number]["after"],
});

/**
 * GET /v1/changes: every server's observed transitions, oldest first within a
 * page. With `since`, the changes after that cursor; without it, the newest
 * page (so a new poller starts from now, then follows next_cursor). An empty
 * page keeps the cursor it was asked with, so polling it again is always safe.
 */
export async function listChanges(db: Db, query: ChangeFeedQuery): Promise<ChangeFeedResponse> {
  if (query.since === undefined) {
    const newest = await db.select().from(changes).orderBy(desc(changes.id)).limit(query.limit);
    newest.reverse();
    const last = newest.at(-1)?.id ?? 0;
    return { ok: true, changes: newest.map(toChange), next_cursor: encodeChangeCursor(last), has_more: false };
  }
  const after = decodeChangeCursor(query.since);
  const rows = await db
    .select()
    .from(changes)
    .where(gt(changes.id, after))
    .orderBy(asc(changes.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  return {
    ok: true,
    changes: page.map(toChange),
    next_cursor: encodeChangeCursor(page.at(-1)?.id ?? after),
    has_more: rows.length > query.limit,
  };
}
