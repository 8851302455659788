import { date, integer, pgTable, text } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { tstz } from "./columns";

/**
 * One wallet per account. The monthly grant refills lazily on the first call of
 * a new UTC month; purchased credits never expire. Spending takes the grant
 * first, then purchased credits, in one conditional UPDATE (lib/quota/charge-caller.ts).
 */
export const creditWallets = pgTable("credit_wallets", {
  accountId: text("account_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  /** The first day (UTC) of the month the grant below belongs to. */
  periodStart: date("period_start", { mode: "string" }).notNull(),
  /** The grant of that month as it was given (the tier's grant at refill time). */
  grantAmount: integer("grant_amount").notNull(),
  grantRemaining: integer("grant_remaining").notNull(),
  purchasedRemaining: integer("purchased_remaining").notNull().default(0),
  updatedAt: tstz("updated_at").notNull().defaultNow(),
});

export type CreditWalletRow = typeof creditWallets.$inferSelect;
