import { boolean, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { tstz } from "./columns";

/**
 * The latest observation of one package on its registry (jspkg, pypkg), keyed by
 * ecosystem and identifier as the listing names it: presence and deprecation. The
 * vulnerability look-ups are per listed version, in vuln_observations.
 */
export const packageObservations = pgTable(
  "package_observations",
  {
    ecosystem: text("ecosystem").notNull(),
    identifier: text("identifier").notNull(),
    /** false: the registry answered that the package does not exist (or was unpublished). */
    exists: boolean("exists"),
    unpublished: boolean("unpublished"),
    latestVersion: text("latest_version"),
    /** Per-version facts: { "<version>": { deprecated?: string, yanked?: boolean } } */
    versions: jsonb("versions"),
    /** Deprecation message of the latest version, when deprecated. */
    deprecated: text("deprecated"),
    etag: text("etag"),
    observedAt: tstz("observed_at"),
    attemptedAt: tstz("attempted_at"),
    lastError: text("last_error"),
  },
  (t) => [primaryKey({ columns: [t.ecosystem, t.identifier] })],
);

export type PackageObservationRow = typeof packageObservations.$inferSelect;
