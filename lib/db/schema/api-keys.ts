import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, tstz } from "./columns";
import { accounts } from "./accounts";

/**
 * API keys: only the SHA-256 of the key is kept, with a short visible prefix so
 * a person can tell keys apart. The plaintext exists once, in the response that
 * creates it. Revoked keys stay (revoked_at set) so the account page can show them.
 */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** e.g. `catk_3fK9aQ`: the first characters, safe to show and to log. */
    prefix: text("prefix").notNull(),
    /** Hex SHA-256 of the whole key. */
    hash: text("hash").notNull(),
    /** What the account holder calls the key ("CI", "laptop"), at most 40 characters, trimmed; null when unnamed. */
    name: text("name"),
    createdAt: createdAt(),
    lastUsedAt: tstz("last_used_at"),
    revokedAt: tstz("revoked_at"),
  },
  (t) => [
    // every keyed request: key → account
    uniqueIndex("api_keys_hash_idx").on(t.hash),
    // the account page lists an account's keys
    index("api_keys_account_idx").on(t.accountId),
  ],
);

export type ApiKeyRow = typeof apiKeys.$inferSelect;
