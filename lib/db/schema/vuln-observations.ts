import { jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { tstz } from "./columns";

/**
 * The vulnerability look-up of one listed package version. Servers may list
 * different versions of one package, so results are kept per listed version
 * ("" when the listing names none: then the registry's latest version at the
 * time, recorded in queried_version, is what was looked up).
 */
export const vulnObservations = pgTable(
  "vuln_observations",
  {
    ecosystem: text("ecosystem").notNull(),
    identifier: text("identifier").notNull(),
    listedVersion: text("listed_version").notNull(),
    queriedVersion: text("queried_version"),
    /** [{id, summary, severity, modified}] affecting the version; [] when none; null until looked up. */
    advisories: jsonb("advisories"),
    observedAt: tstz("observed_at"),
    attemptedAt: tstz("attempted_at"),
    lastError: text("last_error"),
  },
  (t) => [primaryKey({ columns: [t.ecosystem, t.identifier, t.listedVersion] })],
);

export type VulnObservationRow = typeof vulnObservations.$inferSelect;
