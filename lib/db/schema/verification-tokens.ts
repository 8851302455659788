import { pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { tstz } from "./columns";

/**
 * Magic-link tokens of the e-mail sign-in. next-auth stores the token already
 * hashed with its secret, so a database dump does not let anyone sign in.
 */
export const verificationTokens = pgTable(
  "verification_tokens",
  {
    identifier: text("identifier").notNull(),
    token: text("token").notNull(),
    expires: tstz("expires").notNull(),
  },
  (t) => [primaryKey({ columns: [t.identifier, t.token] })],
);
