import { bigint, bigserial, boolean, index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { tstz } from "./columns";
import { watchDeliveries } from "./watch-deliveries";

/** Every attempt to send one delivery, answered or not (anchors C5: a failure log the owner can read). */
export const watchDeliveryAttempts = pgTable(
  "watch_delivery_attempts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    deliveryId: bigint("delivery_id", { mode: "number" })
      .notNull()
      .references(() => watchDeliveries.id, { onDelete: "cascade" }),
    /** 1 for the first attempt. */
    attempt: integer("attempt").notNull(),
    startedAt: tstz("started_at").notNull(),
    durationMs: integer("duration_ms").notNull(),
    ok: boolean("ok").notNull(),
    /** The receiver's HTTP status; null when none came (timeout, refused, blocked) and for e-mail. */
    statusCode: integer("status_code"),
    /** Why it failed: `http_500`, `redirect_not_followed`, `timeout`, `blocked: …`, a network or SMTP error. */
    error: text("error"),
    /** The first bytes of the receiver's answer (or the SMTP server's reply). */
    response: text("response"),
  },
  (t) => [
    // a delivery's attempts in order
    index("watch_delivery_attempts_delivery_idx").on(t.deliveryId, t.attempt),
  ],
);

export type WatchDeliveryAttemptRow = typeof watchDeliveryAttempts.$inferSelect;
