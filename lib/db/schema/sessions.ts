import { index, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, tstz } from "./columns";
import { accounts } from "./accounts";

/**
 * Signed-in browser sessions (next-auth's database strategy). A session lives here rather than only in a
 * signed cookie so that signing out ends it on the server too: a copied cookie stops working at once.
 * The cookie holds a random token; only its SHA-256 is kept, so a database dump signs no one in.
 */
export const sessions = pgTable(
  "sessions",
  {
    /** Hex SHA-256 of the session cookie's token. */
    tokenHash: text("token_hash").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    expires: tstz("expires").notNull(),
    createdAt: createdAt(),
  },
  // maintenance deletes expired sessions
  (t) => [index("sessions_expires_idx").on(t.expires)],
);
