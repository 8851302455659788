import { bigserial, index, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";

/**
 * Mail the service would have sent, kept when no SMTP_URL is set so the dev
 * mailbox page (/dev/mailbox) can show sign-in links on a machine without a mail
 * server. Never written when SMTP is configured.
 */
export const devMailbox = pgTable(
  "dev_mailbox",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    /** The link the message is about (sign-in link, account page), for the mailbox page's button. */
    url: text("url"),
    createdAt: createdAt(),
  },
  (t) => [
    // the mailbox page: newest first
    index("dev_mailbox_created_idx").on(t.createdAt),
  ],
);

export type DevMailRow = typeof devMailbox.$inferSelect;
