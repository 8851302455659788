import { date, index, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";

/**
 * The distinct subjects an anonymous client IP looked up on a UTC day, per
 * allowance (`lookups`, or another keyless allowance). A repeat finds its row and
 * is free; the count of rows is kept in quota_counters so the limit is one
 * conditional UPDATE rather than a COUNT that two requests could both pass.
 */
export const anonymousLookups = pgTable(
  "anonymous_lookups",
  {
    ip: text("ip").notNull(),
    allowance: text("allowance").notNull(),
    utcDay: date("utc_day", { mode: "string" }).notNull(),
    subject: text("subject").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.ip, t.allowance, t.utcDay, t.subject] }),
    // pruning old days
    index("anonymous_lookups_day_idx").on(t.utcDay),
  ],
);
