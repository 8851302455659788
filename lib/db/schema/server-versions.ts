import { sql } from "drizzle-orm";
import { bigserial, bigint, boolean, index, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { tstz, createdAt } from "./columns";
import { servers } from "./servers";

/** Every version the registry ever listed for a server; nothing is deleted. */
export const serverVersions = pgTable(
  "server_versions",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    serverId: bigint("server_id", { mode: "number" })
      .notNull()
      .references(() => servers.id),
    version: text("version").notNull(),
    isLatest: boolean("is_latest").notNull(),
    status: text("status"),
    statusMessage: text("status_message"),
    statusChangedAt: tstz("status_changed_at"),
    publishedAt: tstz("published_at"),
    registryUpdatedAt: tstz("registry_updated_at"),
    schemaUrl: text("schema_url"),
    repositoryUrl: text("repository_url"),
    /** The server.json document as published, so later issues can re-read any field. */
    document: jsonb("document").notNull(),
    /** sha256 of the normalised entry: a re-ingest that matches writes nothing. */
    contentHash: text("content_hash").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    // ingest diff and version listing
    uniqueIndex("server_versions_server_version_uq").on(t.serverId, t.version),
    index("server_versions_latest_idx").on(t.serverId).where(sql`${t.isLatest}`),
  ],
);

export type ServerVersionRow = typeof serverVersions.$inferSelect;
