import { pgTable, text } from "drizzle-orm/pg-core";
import { tstz } from "./columns";

/**
 * Short-lived claims on a piece of work (a liveness refresh of one server, a
 * harvest item), shared by every process: a row, not an in-memory flag, so two
 * instances never do the same work and a crashed holder's claim expires.
 */
export const leases = pgTable("leases", {
  key: text("key").primaryKey(),
  holder: text("holder").notNull(),
  acquiredAt: tstz("acquired_at").notNull(),
  expiresAt: tstz("expires_at").notNull(),
});

export type LeaseRow = typeof leases.$inferSelect;
