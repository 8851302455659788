import { bigint, index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { serverVersions } from "./server-versions";

/** Hosted endpoints of one server version (streamable-http or sse). */
export const serverRemotes = pgTable(
  "server_remotes",
  {
    versionId: bigint("version_id", { mode: "number" })
      .notNull()
      .references(() => serverVersions.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    type: text("type").notNull(),
    url: text("url").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.versionId, t.position] }),
    // config audit resolves entries by remote URL
    index("server_remotes_url_idx").on(t.url),
    // the config audit matches remote URLs lower-cased (registry URLs keep their published case)
    index("server_remotes_url_lower_idx").on(sql`lower(${t.url})`),
  ],
);

export type ServerRemoteRow = typeof serverRemotes.$inferSelect;
