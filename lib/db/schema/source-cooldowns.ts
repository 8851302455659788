import { pgTable, text } from "drizzle-orm/pg-core";
import { tstz } from "./columns";

/**
 * An upstream that told us to stop (429, rate-limit reset, Retry-After): no run
 * calls it again before `until`, whichever process runs next.
 */
export const sourceCooldowns = pgTable("source_cooldowns", {
  source: text("source").primaryKey(),
  until: tstz("until").notNull(),
  reason: text("reason").notNull(),
  updatedAt: tstz("updated_at").notNull(),
});

export type SourceCooldownRow = typeof sourceCooldowns.$inferSelect;
