import { bigint, boolean, integer, pgTable, text } from "drizzle-orm/pg-core";
import { tstz } from "./columns";
import { repositories } from "./repositories";

/**
 * The latest observation of one repository on its code host. observed_at moves
 * only on a successful answer; attempted_at on every try, so a failed attempt
 * leaves the last good values in place (then stale) and never erases them.
 */
export const repositoryObservations = pgTable("repository_observations", {
  repositoryId: bigint("repository_id", { mode: "number" })
    .primaryKey()
    .references(() => repositories.id),
  /** false: the host answered 404/410 (gone) or 451 (blocked); null: never observed. */
  exists: boolean("exists"),
  httpStatus: integer("http_status"),
  archived: boolean("archived"),
  disabled: boolean("disabled"),
  fork: boolean("fork"),
  pushedAt: tstz("pushed_at"),
  stars: integer("stars"),
  ownerLogin: text("owner_login"),
  ownerType: text("owner_type"),
  /** Set when the host redirected to another owner/name. */
  renamedTo: text("renamed_to"),
  hostRepoId: text("host_repo_id"),
  etag: text("etag"),
  observedAt: tstz("observed_at"),
  attemptedAt: tstz("attempted_at"),
  lastError: text("last_error"),
});

export type RepositoryObservationRow = typeof repositoryObservations.$inferSelect;
