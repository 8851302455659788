import { bigint, bigserial, index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, tstz } from "./columns";
import { servers } from "./servers";

/**
 * One observed transition of one server (DESIGN §8 change feed). Rows are
 * written by recordChanges() in the transaction of the observation that caused
 * them, under a lock that makes id order equal commit order, so `id` is the
 * monotonic base of the feed cursor.
 */
export const changes = pgTable(
  "changes",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    /** server_new, remote_down, remote_up, tools_changed, health_change, verified_change, security, endpoint_moved, registry_status, spec_era_change */
    kind: text("kind").notNull(),
    serverId: bigint("server_id", { mode: "number" })
      .notNull()
      .references(() => servers.id),
    serverName: text("server_name").notNull(),
    /** When the upstream answer that revealed the transition was observed. */
    observedAt: tstz("observed_at").notNull(),
    before: jsonb("before"),
    after: jsonb("after"),
    createdAt: createdAt(),
  },
  (t) => [
    // a server's history (cards, watches), newest first
    index("changes_server_idx").on(t.serverId, t.id),
  ],
);

export type ChangeRow = typeof changes.$inferSelect;
