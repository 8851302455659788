import { bigserial, boolean, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { tstz } from "./columns";

/**
 * One row per catalog ingest (API crawl or dump file). The listing is observed as
 * a whole, so a server's listing_observed_at is the observed_at of the newest
 * successful sync that covered it; rows of the catalog change only when content does.
 */
export const registrySyncs = pgTable("registry_syncs", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  source: text("source").notNull(), // "api" | "file"
  origin: text("origin").notNull(), // base URL or file path
  /** A complete listing can delist names it lacks; an incremental one cannot. */
  complete: boolean("complete").notNull(),
  status: text("status").notNull(), // running | succeeded | failed
  startedAt: tstz("started_at").notNull(),
  finishedAt: tstz("finished_at"),
  observedAt: tstz("observed_at"),
  /** For incremental API runs: the updated_since value sent. */
  updatedSince: tstz("updated_since"),
  entries: integer("entries").notNull().default(0),
  pages: integer("pages").notNull().default(0),
  counts: jsonb("counts"),
  error: text("error"),
});

export type RegistrySyncRow = typeof registrySyncs.$inferSelect;
