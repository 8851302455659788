import { sql } from "drizzle-orm";
import { bigint, bigserial, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, tstz } from "./columns";
import { changes } from "./changes";
import { watches } from "./watches";

/**
 * The durable outbox (DESIGN §8): one row per watch, change and channel,
 * written in the transaction that records the change, so a notification exists
 * exactly when the observation behind it does. The delivery worker leases rows,
 * sends them in id order per (watch, channel) lane, and records every attempt
 * in watch_delivery_attempts.
 */
export const watchDeliveries = pgTable(
  "watch_deliveries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    /** `evt_…`: the payload's id and X-Catalog-Delivery; the same on every attempt and on both channels. */
    eventId: text("event_id").notNull(),
    watchId: text("watch_id")
      .notNull()
      .references(() => watches.id, { onDelete: "cascade" }),
    /** `webhook` | `email` */
    channel: text("channel").notNull(),
    changeId: bigint("change_id", { mode: "number" })
      .notNull()
      .references(() => changes.id),
    /** The watch event kind (X-Catalog-Event). */
    kind: text("kind").notNull(),
    /** The exact JSON body: every attempt sends (and signs) the same bytes. */
    body: text("body").notNull(),
    /** `pending` | `delivered` | `failed` (given up after the retry window) | `cancelled` (watch unsubscribed) */
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: tstz("next_attempt_at").notNull(),
    /** Random per claim; a worker may only finish rows still carrying its token. */
    leaseToken: text("lease_token"),
    leaseUntil: tstz("lease_until"),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    lastAttemptAt: tstz("last_attempt_at"),
    createdAt: createdAt(),
    /** When it was delivered, given up or cancelled. */
    finishedAt: tstz("finished_at"),
  },
  (t) => [
    // one event per watch and channel; the hook never writes a second
    uniqueIndex("watch_deliveries_event_channel_idx").on(t.eventId, t.channel),
    // the claim: lanes of pending rows in order, and the per-watch order check
    index("watch_deliveries_pending_lane_idx")
      .on(t.watchId, t.channel, t.id)
      .where(sql`${t.status} = 'pending'`),
    // the claim: due pending rows
    index("watch_deliveries_pending_due_idx").on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    // a watch's delivery history, newest first
    index("watch_deliveries_watch_idx").on(t.watchId, t.id),
  ],
);

export type WatchDeliveryRow = typeof watchDeliveries.$inferSelect;
