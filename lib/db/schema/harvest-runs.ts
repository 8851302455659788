import { bigserial, index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { tstz } from "./columns";

/**
 * One harvest run (cron route, CLI or the embedded timer), with what it did per
 * source: items due, attempted, observed, failed; upstream calls; why a source
 * stopped early (budget, deadline, rate limit). Read by the coverage report.
 */
export const harvestRuns = pgTable(
  "harvest_runs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    trigger: text("trigger").notNull(), // cron | cli | timer | test
    holder: text("holder").notNull(),
    status: text("status").notNull(), // running | succeeded | partial | failed
    startedAt: tstz("started_at").notNull(),
    finishedAt: tstz("finished_at"),
    /** { repo: {due, attempted, observed, failed, skipped}, … } */
    counts: jsonb("counts"),
    /** Upstream HTTP calls by source: { registry, repo, jspkg, pypkg, vuln, liveness } */
    calls: jsonb("calls"),
    /** { <source>: "budget" | "deadline" | "rate_limited until …" | "cooldown until …" } */
    stopped: jsonb("stopped"),
    /** The first errors of the run: [{source, item, error}] */
    errors: jsonb("errors"),
    changes: jsonb("changes"),
  },
  (t) => [
    // coverage report: the newest runs
    index("harvest_runs_started_idx").on(t.startedAt),
  ],
);

export type HarvestRunRow = typeof harvestRuns.$inferSelect;
