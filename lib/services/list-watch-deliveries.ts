import { asc, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { watchDeliveries, watchDeliveryAttempts } from "@/lib/db/schema";
import type { z } from "zod";
import type { watchDeliveriesResponseSchema, WatchEventKind } from "@/lib/schemas/watch";
import { findOwnWatch } from "./delete-watch";
import type { WatchCaller } from "./create-watch";

type Response = z.infer<typeof watchDeliveriesResponseSchema>;

/**
 * GET /v1/watch/deliveries?id=: a watch's newest deliveries with every attempt
 * (status code, error, duration, the start of the receiver's answer), so an owner can see why a receiver missed an
 * event and when it is tried next.
 */
export async function listWatchDeliveries(db: Db, caller: WatchCaller, id: string, limit: number): Promise<Response> {
  const watch = await findOwnWatch(db, caller, id);
  const rows = await db
    .select()
    .from(watchDeliveries)
    .where(eq(watchDeliveries.watchId, watch.id))
    .orderBy(desc(watchDeliveries.id))
    .limit(limit);
  const attempts = rows.length
    ? await db
        .select()
        .from(watchDeliveryAttempts)
        .where(inArray(watchDeliveryAttempts.deliveryId, rows.map((r) => r.id)))
        .orderBy(asc(watchDeliveryAttempts.deliveryId), asc(watchDeliveryAttempts.attempt), asc(watchDeliveryAttempts.id))
    : [];
  const byDelivery = new Map<number, typeof attempts>();
  for (const a of attempts) byDelivery.set(a.deliveryId, [...(byDelivery.get(a.deliveryId) ?? []), a]);
  return {
    ok: true,
    watch_id: watch.id,
    count: rows.length,
    deliveries: rows.map((d) => ({
      event_id: d.eventId,
      channel: d.channel as "webhook" | "email",
      type: d.kind as WatchEventKind,
      status: d.status as "pending" | "delivered" | "failed" | "cancelled",
      attempts: d.attempts,
      created_at: d.createdAt.toISOString(),
      next_attempt_at: d.status === "pending" ? d.nextAttemptAt.toISOString() : null,
      finished_at: d.finishedAt ? d.finishedAt.toISOString() : null,
      last_status_code: d.lastStatusCode,
      last_error: d.lastError,
      attempt_log: (byDelivery.get(d.id) ?? []).map((a) => ({
        attempt: a.attempt,
        started_at: a.startedAt.toISOString(),
        duration_ms: a.durationMs,
        ok: a.ok,
        status_code: a.statusCode,
        error: a.error,
        response: a.response ?? null,
      })),
    })),
  };
}
