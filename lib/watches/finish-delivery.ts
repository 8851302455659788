import { and, eq, notInArray, sql } from "drizzle-orm";
import type { Db, Queryable } from "@/lib/db/client";
import { watchDeliveries } from "@/lib/db/schema";
import type { ClaimedDelivery } from "./claim-deliveries";
import { rowsOf } from "./claim-deliveries";
import { nextAttemptAfterFailure } from "./retry-schedule";
import type { AttemptOutcome } from "./send-webhook";
import { storableText } from "@/lib/db/storable-text";

const tsOrNull = (d: Date | null) => (d ? sql`${d.toISOString()}::timestamptz` : sql`null`);

export type FinishedAs = "delivered" | "retrying" | "failed";

/**
 * Records one attempt and moves its delivery on, in one statement: delivered;
 * or pending again at the next time of the retry schedule; or `failed` when the
 * 24 h window is over. The status moves only while this worker still holds the
 * lease (`held`); the attempt is recorded either way, since it was made.
 */
export async function finishAttempt(
  db: Db,
  row: ClaimedDelivery,
  token: string,
  outcome: AttemptOutcome,
  startedAt: Date,
): Promise<{ held: boolean; as: FinishedAs; nextAttemptAt: Date | null }> {
  const attempt = row.attempts + 1;
  const next = outcome.ok ? null : nextAttemptAfterFailure(row.createdAt, attempt, startedAt);
  const as: FinishedAs = outcome.ok ? "delivered" : next ? "retrying" : "failed";
  const status = as === "retrying" ? "pending" : as;
  const finishedAt = as === "retrying" ? null : new Date(startedAt.getTime() + outcome.durationMs);
  const raw = await db.execute(sql`
    with upd as (
      update watch_deliveries
      set status = ${status},
          attempts = attempts + 1,
          next_attempt_at = coalesce(${tsOrNull(next)}, next_attempt_at),
          lease_token = null,
          lease_until = null,
          last_status_code = ${outcome.statusCode},
          -- a receiver's answer (or a mail server's reply) may hold a NUL: refused, this statement failed after
          -- every send, and the sent event went out again and again
          last_error = ${storableText(outcome.error)},
          last_attempt_at = ${tsOrNull(startedAt)},
          finished_at = ${tsOrNull(finishedAt)}
      where id = ${row.id} and lease_token = ${token} and status = 'pending'
      returning id
    ),
    ins as (
      insert into watch_delivery_attempts (delivery_id, attempt, started_at, duration_ms, ok, status_code, error, response)
      values (${row.id}, ${attempt}, ${tsOrNull(startedAt)}, ${outcome.durationMs}, ${outcome.ok}, ${outcome.statusCode}, ${storableText(outcome.error)}, ${storableText(outcome.response)})
    )
    select count(*)::int as n from upd
  `);
  const held = Number(rowsOf<{ n: number }>(raw)[0]?.n ?? 0) > 0;
  return { held, as, nextAttemptAt: next };
}

/** Cancels a watch's pending deliveries (unsubscribed), one channel's when its target is gone, or the kinds it no longer watches. */
export async function cancelPendingDeliveries(
  db: Queryable,
  watchId: string,
  now: Date,
  channel?: "webhook" | "email",
  /** Cancel only events of kinds other than these (a watch whose `events` were narrowed). */
  keepKinds?: readonly string[],
): Promise<number> {
  const rows = await db
    .update(watchDeliveries)
    .set({ status: "cancelled", finishedAt: now, leaseToken: null, leaseUntil: null })
    .where(
      and(
        eq(watchDeliveries.watchId, watchId),
        eq(watchDeliveries.status, "pending"),
        channel ? eq(watchDeliveries.channel, channel) : undefined,
        keepKinds ? notInArray(watchDeliveries.kind, [...keepKinds]) : undefined,
      ),
    )
    .returning({ id: watchDeliveries.id });
  return rows.length;
}
