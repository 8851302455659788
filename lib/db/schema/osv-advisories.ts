import { jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { tstz } from "./columns";

/**
 * Advisory records read from the vulnerability database, keyed by id and
 * refreshed only when a batch answer reports a newer `modified`: detail
 * look-ups are made for new or changed ids only.
 */
export const osvAdvisories = pgTable("osv_advisories", {
  id: text("id").primaryKey(),
  modified: tstz("modified"),
  summary: text("summary"),
  /** GHSA severity word (LOW|MODERATE|HIGH|CRITICAL) or the first CVSS vector; null when the record gives none. */
  severity: text("severity"),
  aliases: jsonb("aliases"),
  withdrawn: tstz("withdrawn"),
  fetchedAt: tstz("fetched_at").notNull(),
});

export type OsvAdvisoryRow = typeof osvAdvisories.$inferSelect;
