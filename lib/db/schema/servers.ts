import { bigserial, bigint, index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { tstz, createdAt } from "./columns";
import { repositories } from "./repositories";

/**
 * One row per canonical server name. The descriptive columns mirror the latest
 * version so the read paths (search, card, preflight) need no join to find it.
 */
export const servers = pgTable(
  "servers",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    name: text("name").notNull(),
    namespace: text("namespace").notNull(),
    /** The part after the first "/", used by lookalike detection. */
    serverPart: text("server_part").notNull(),
    title: text("title"),
    description: text("description"),
    websiteUrl: text("website_url"),
    latestVersion: text("latest_version"),
    latestVersionId: bigint("latest_version_id", { mode: "number" }),
    /** As the registry last reported it (active, deprecated, deleted, …); null when it did not say. */
    registryStatus: text("registry_status"),
    statusMessage: text("status_message"),
    statusChangedAt: tstz("status_changed_at"),
    /** The server.json schema date of the latest version, e.g. "2025-09-29". */
    specEra: text("spec_era"),
    repositoryId: bigint("repository_id", { mode: "number" }).references(() => repositories.id),
    publishedAt: tstz("published_at"),
    registryUpdatedAt: tstz("registry_updated_at"),
    firstSeenAt: tstz("first_seen_at").notNull(),
    /** Set when a complete listing no longer contained the name; cleared when it returns. */
    delistedAt: tstz("delisted_at"),
    createdAt: createdAt(),
    updatedAt: tstz("updated_at").notNull().defaultNow(),
  },
  (t) => [
    // exact-name lookups (preflight, card, badge) are case-sensitive
    uniqueIndex("servers_name_uq").on(t.name),
    // lookalikes: same server part under another namespace
    index("servers_server_part_idx").on(t.serverPart),
    // recent: newest first
    index("servers_first_seen_idx").on(t.firstSeenAt),
  ],
);

export type ServerRow = typeof servers.$inferSelect;
