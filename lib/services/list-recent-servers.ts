import { and, desc, isNull, sql } from "drizzle-orm";
import type { Queryable } from "@/lib/db/client";
import { servers } from "@/lib/db/schema";
import { ApiError } from "@/lib/api/errors";
import { loadHealthCards } from "@/lib/cards/load-health-cards";
import type { RecentQuery, RecentResult } from "@/lib/schemas/reports";

/**
 * The opaque cursor of /v1/recent: the first_seen_at (to the microsecond, as Postgres stores it; a JS Date
 * would round it to the millisecond and skip servers) and id of the last server of the previous page.
 */
export function encodeRecentCursor(firstSeenAt: string, id: number): string {
  return Buffer.from(JSON.stringify([firstSeenAt, id])).toString("base64url");
}

const MICRO_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** A real instant Postgres takes: the regex passes "2025-02-30" or year 0, which Postgres refuses (a 500). */
function isRealMicroTime(at: string): boolean {
  if (!MICRO_ISO.test(at) || at.startsWith("0000")) return false;
  const ms = `${at.slice(0, 23)}Z`;
  const t = Date.parse(ms);
  // a day or hour past its end (Feb 30, 24:00) rolls over: the round trip differs
  return !Number.isNaN(t) && new Date(t).toISOString() === ms;
}

export function decodeRecentCursor(cursor: string): { firstSeenAt: string; id: number } {
  try {
    const [firstSeenAt, id] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as [string, number];
    if (typeof firstSeenAt !== "string" || !isRealMicroTime(firstSeenAt) || !Number.isSafeInteger(id)) throw new Error();
    return { firstSeenAt, id };
  } catch {
    throw new ApiError("invalid_request", "cursor: not a cursor this endpoint returned (use next_cursor as given)");
  }
}

/**
 * GET /v1/recent and catalog_recent: listed servers, newest first by first_seen_at (when the registry first
 * listed them), as HealthCards, keyset-paginated: pass `next_cursor` back as `cursor` for the next page.
 */
export async function listRecentServers(db: Queryable, input: RecentQuery, opts: { now?: Date } = {}): Promise<RecentResult> {
  const after = input.cursor ? decodeRecentCursor(input.cursor) : null;
  const rows = await db
    .select({
      id: servers.id,
      name: servers.name,
      firstSeenAt: sql<string>`to_char(${servers.firstSeenAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
    })
    .from(servers)
    .where(
      and(
        isNull(servers.delistedAt),
        after ? sql`(${servers.firstSeenAt}, ${servers.id}) < (${after.firstSeenAt}::timestamptz, ${after.id}::bigint)` : undefined,
      ),
    )
    .orderBy(desc(servers.firstSeenAt), desc(servers.id))
    .limit(input.limit + 1);
  const page = rows.slice(0, input.limit);
  const hasMore = rows.length > input.limit;
  const cards = await loadHealthCards(db, page.map((r) => r.name), opts.now ?? new Date());
  const last = page.at(-1);
  return {
    ok: true,
    count: cards.length,
    servers: cards,
    next_cursor: hasMore && last ? encodeRecentCursor(last.firstSeenAt, last.id) : null,
    has_more: hasMore,
  };
}
