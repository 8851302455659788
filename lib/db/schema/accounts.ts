import { integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, tstz } from "./columns";

/**
 * A person who signed in by e-mail (next-auth's "user"). The tier decides the
 * monthly credit grant; a free account needs no card, so nothing here is billing.
 */
export const accounts = pgTable(
  "accounts",
  {
    id: text("id").primaryKey(),
    /** Stored lower-cased so one address is one account. */
    email: text("email").notNull(),
    emailVerifiedAt: tstz("email_verified_at"),
    name: text("name"),
    /** `registered` or `pro`; `free` is the keyless tier and never stored. */
    tier: text("tier").notNull().default("registered"),
    /** Active watches allowed when an operator granted more than the tier's (contract Limits: "more by request"). */
    watchLimit: integer("watch_limit"),
    createdAt: createdAt(),
  },
  (t) => [
    // sign-in: next-auth looks the account up by e-mail
    uniqueIndex("accounts_email_idx").on(t.email),
  ],
);

export type AccountRow = typeof accounts.$inferSelect;
