import { randomUUID } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db, Queryable } from "@/lib/db/client";
import { watchDeliveries, watches } from "@/lib/db/schema";

/** One claimed outbox row, as the worker needs it. */
export interface ClaimedDelivery {
  id: number;
  eventId: string;
  watchId: string;
  channel: "webhook" | "email";
  kind: string;
  body: string;
  attempts: number;
  createdAt: Date;
}

/** A run of one (watch, channel) queue, in id order, claimed under one lease token. */
export interface ClaimedLane {
  watchId: string;
  channel: "webhook" | "email";
  token: string;
  rows: ClaimedDelivery[];
}

// Arbitrary constant: serialises claimers (see claimDeliveries).
const CLAIM_LOCK_KEY = 7_301_990_460;

/** Rows of a raw query on any of the three drivers. */
export function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? (result as T[])) as T[];
}

const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/**
 * Leases due outbox rows for one worker: at most `perLane` rows of each
 * (watch, channel) queue and `batch` in all, oldest first. Per-watch order: a
 * row is claimable only when every earlier pending row of its queue is
 * claimable too (none waits for a retry or is leased by another worker), so a
 * claim is always a prefix of a queue and a later event never overtakes an
 * earlier one.
 *
 * Claimers take a transaction-scoped advisory lock: "a prefix of the queue" is
 * a property of several rows at once, which FOR UPDATE SKIP LOCKED cannot keep
 * (a second claimer would skip the locked head and take the rows behind it).
 * The lock is held only for this one statement; sending happens outside it.
 * On PGlite (one connection) it costs nothing.
 */
export async function claimDeliveries(
  db: Db,
  opts: { now: Date; leaseMs: number; batch: number; perLane: number },
): Promise<ClaimedLane[]> {
  const token = randomUUID();
  const until = new Date(opts.now.getTime() + opts.leaseMs);
  const raw = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${CLAIM_LOCK_KEY})`);
    return tx.execute(sql`
      with pend as (
        select id, watch_id, channel,
               (next_attempt_at > ${ts(opts.now)} or (lease_until is not null and lease_until > ${ts(opts.now)})) as blocked
        from watch_deliveries
        where status = 'pending'
      ),
      lanes as (
        select watch_id, channel, min(id) filter (where blocked) as block_id
        from pend
        group by watch_id, channel
      ),
      ranked as (
        select p.id, row_number() over (partition by p.watch_id, p.channel order by p.id) as rn
        from pend p
        join lanes l on l.watch_id = p.watch_id and l.channel = p.channel
        where l.block_id is null or p.id < l.block_id
      ),
      pick as (
        select id from ranked where rn <= ${opts.perLane} order by id limit ${opts.batch}
      )
      update watch_deliveries d
      set lease_token = ${token}, lease_until = ${ts(until)}
      from pick
      where d.id = pick.id
      returning d.id, d.event_id, d.watch_id, d.channel, d.kind, d.body, d.attempts, d.created_at
    `);
  });
  const rows = rowsOf<Record<string, unknown>>(raw)
    .map(
      (r): ClaimedDelivery => ({
        id: Number(r.id),
        eventId: String(r.event_id),
        watchId: String(r.watch_id),
        channel: r.channel as ClaimedDelivery["channel"],
        kind: String(r.kind),
        body: String(r.body),
        attempts: Number(r.attempts),
        createdAt: new Date(r.created_at as string | Date),
      }),
    )
    .sort((a, b) => a.id - b.id);
  const lanes = new Map<string, ClaimedLane>();
  for (const row of rows) {
    const key = `${row.watchId}\u0000${row.channel}`;
    let lane = lanes.get(key);
    if (!lane) lanes.set(key, (lane = { watchId: row.watchId, channel: row.channel, token, rows: [] }));
    lane.rows.push(row);
  }
  return [...lanes.values()];
}

/** Gives back the lease on rows this worker will not send now (they stay pending, in order). */
export async function releaseDeliveries(db: Queryable, token: string, ids: number[]): Promise<void> {
  if (!ids.length) return;
  await db
    .update(watchDeliveries)
    .set({ leaseToken: null, leaseUntil: null })
    .where(and(eq(watchDeliveries.leaseToken, token), eq(watchDeliveries.status, "pending"), inArray(watchDeliveries.id, ids)));
}

/**
 * Checked right before each send: whether this worker still holds the claimed row, pending, and the watch's
 * signing secret now. The watch was read at claim time, and a queue claimed together with others may wait
 * behind their sends: since then a DELETE (or narrowed `events`) may have cancelled the row, which must not
 * be sent, and a rotation may have replaced the secret, which applies at once (docs/webhooks.md). Null when
 * the row is no longer this worker's to send.
 */
export async function heldSecret(db: Queryable, id: number, token: string): Promise<string | null> {
  const [row] = await db
    .select({ secret: watches.secret })
    .from(watchDeliveries)
    .innerJoin(watches, eq(watches.id, watchDeliveries.watchId))
    .where(and(eq(watchDeliveries.id, id), eq(watchDeliveries.leaseToken, token), eq(watchDeliveries.status, "pending"), eq(watches.status, "active")));
  return row?.secret ?? null;
}
