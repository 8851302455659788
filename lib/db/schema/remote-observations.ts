import { boolean, integer, pgTable, text } from "drizzle-orm/pg-core";
import { tstz } from "./columns";

/**
 * The latest liveness probe of one hosted endpoint (MCP initialize + tools/list).
 * A failed probe is an observation too (live = false) when the endpoint answered
 * or refused; a probe we could not make at all only moves attempted_at.
 */
export const remoteObservations = pgTable("remote_observations", {
  url: text("url").primaryKey(),
  type: text("type").notNull(),
  live: boolean("live"),
  httpStatus: integer("http_status"),
  /** Canonical hash of the tool list, for tools_changed. */
  toolsHash: text("tools_hash"),
  toolsCount: integer("tools_count"),
  serverInfo: text("server_info"),
  protocolVersion: text("protocol_version"),
  /** Requires credentials: an answer of 401/403 means up but closed. */
  authRequired: boolean("auth_required"),
  observedAt: tstz("observed_at"),
  attemptedAt: tstz("attempted_at"),
  lastError: text("last_error"),
});

export type RemoteObservationRow = typeof remoteObservations.$inferSelect;
