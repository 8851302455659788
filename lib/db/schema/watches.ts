import { sql } from "drizzle-orm";
import { bigint, index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, tstz } from "./columns";
import { accounts } from "./accounts";
import { apiKeys } from "./api-keys";
import { servers } from "./servers";

/**
 * One account's subscription to one server's changes (contract: Watch states
 * active → unsubscribed), notified by webhook, e-mail or both. Rows are never
 * deleted by users: DELETE /v1/watch sets `unsubscribed`, which keeps the
 * delivery history readable.
 */
export const watches = pgTable(
  "watches",
  {
    /** `wat_` + 16 base36 characters. */
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** The key that created it (watches belong to the account and outlive the key). */
    keyId: text("key_id").references(() => apiKeys.id, { onDelete: "set null" }),
    serverId: bigint("server_id", { mode: "number" })
      .notNull()
      .references(() => servers.id),
    serverName: text("server_name").notNull(),
    webhookUrl: text("webhook_url"),
    /** Lower-cased. */
    email: text("email"),
    /**
     * When the address agreed to receive this watch's notices: at creation when it is the account's own (the one
     * it signs in with), else when its owner followed the confirmation link. No notice goes to an address
     * before; anyone with a key could otherwise make the service mail any stranger.
     */
    emailConfirmedAt: tstz("email_confirmed_at"),
    /** Bearer token of the confirmation link; it can do nothing but confirm this one watch (null without e-mail). */
    emailConfirmToken: text("email_confirm_token"),
    /** webhook_url and email as one string: what "same target" means for create-or-update. */
    targetKey: text("target_key").notNull(),
    /** Subscribed watch event kinds (remote_down, remote_up, health_change, verified_change, security). */
    events: text("events").array().notNull(),
    label: text("label"),
    /** `whsec_…`: signs webhook bodies, so it is kept as is; shown only in the response that creates it. */
    secret: text("secret").notNull(),
    /** Bearer token of the e-mail unsubscribe link; it can do nothing but unsubscribe this watch. */
    unsubscribeToken: text("unsubscribe_token").notNull(),
    /** `active` | `unsubscribed` */
    status: text("status").notNull().default("active"),
    createdAt: createdAt(),
    updatedAt: tstz("updated_at").notNull().defaultNow(),
    unsubscribedAt: tstz("unsubscribed_at"),
  },
  (t) => [
    // create-or-update finds the caller's active watch of a server and target; also stops duplicates under races
    uniqueIndex("watches_active_target_idx")
      .on(t.accountId, t.serverId, t.targetKey)
      .where(sql`${t.status} = 'active'`),
    // the change hook fans a change out to the server's active watches
    index("watches_active_server_idx").on(t.serverId).where(sql`${t.status} = 'active'`),
    // GET /v1/watch and the tier limit count an account's watches
    index("watches_account_idx").on(t.accountId, t.status),
    // the e-mail unsubscribe link
    uniqueIndex("watches_unsubscribe_token_idx").on(t.unsubscribeToken),
    // the e-mail confirmation link
    uniqueIndex("watches_email_confirm_token_idx").on(t.emailConfirmToken),
  ],
);

export type WatchRow = typeof watches.$inferSelect;
