import { bigserial, index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";

/**
 * Code repositories named by servers, one row per normalised URL so that
 * several servers in one monorepo share one observation.
 */
export const repositories = pgTable(
  "repositories",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    url: text("url").notNull(),
    source: text("source"),
    host: text("host"),
    owner: text("owner"),
    name: text("name"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("repositories_url_uq").on(t.url),
    // the harvester batches by host
    index("repositories_host_idx").on(t.host),
  ],
);

export type RepositoryRow = typeof repositories.$inferSelect;
