import { date, index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { createdAt } from "./columns";

/**
 * What an account paid for on a UTC day, one row per subject ("search:<q>",
 * "preflight:<policy>:<name>", …). The primary key is what makes a repeat free,
 * also for two identical requests arriving at once: the second insert waits on
 * the first and finds the row.
 */
export const creditCharges = pgTable(
  "credit_charges",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    utcDay: date("utc_day", { mode: "string" }).notNull(),
    subject: text("subject").notNull(),
    cost: integer("cost").notNull(),
    keyId: text("key_id"),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.utcDay, t.subject] }),
    // pruning old days
    index("credit_charges_day_idx").on(t.utcDay),
  ],
);

export type CreditChargeRow = typeof creditCharges.$inferSelect;
