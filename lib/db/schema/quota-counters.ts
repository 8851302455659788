import { index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { tstz } from "./columns";

/**
 * Fixed-window counters shared by every instance: burst windows ("burst:key:<id>",
 * one minute) and daily allowances ("lookups:ip:<ip>", one UTC day). A row per
 * bucket and window start; incremented with INSERT … ON CONFLICT DO UPDATE so the
 * count is exact under concurrency.
 */
export const quotaCounters = pgTable(
  "quota_counters",
  {
    bucket: text("bucket").notNull(),
    windowStart: tstz("window_start").notNull(),
    count: integer("count").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.bucket, t.windowStart] }),
    // pruning expired windows
    index("quota_counters_window_idx").on(t.windowStart),
  ],
);
