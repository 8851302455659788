import { z } from "zod";
import { HEALTH_VALUES } from "@/lib/engine/health";
import { RECENT_LIMIT_DEFAULT, RECENT_LIMIT_MAX } from "@/lib/config";
import { healthCardSchema } from "./health-card";
import { integerParam } from "./params";

// Zod mirrors of the bodies of GET /v1/stats, /v1/recent and /v1/coverage. The contract leaves them open
// ("not shown"); docs/search-and-cards.md describes them, and these strict schemas hold the code to it.

const dateTime = z.iso.datetime({ offset: true });
const count = z.number().int().nonnegative();
const counts = z.record(z.string(), count);

export const statsReportSchema = z.strictObject({
  ok: z.literal(true),
  /** When the listing behind these numbers was read from the registry. */
  as_of: dateTime.nullable(),
  servers: z.strictObject({ listed: count, delisted: count, by_registry_status: counts }),
  health: z.strictObject(Object.fromEntries(HEALTH_VALUES.map((h) => [h, count])) as Record<(typeof HEALTH_VALUES)[number], typeof count>),
  health_problems: counts,
  verified: count,
  /** Listed servers not verified only because evidence is not observed yet (the card's verified_status `unknown`). */
  verified_unknown: count,
  /** Listed servers with at least one artifact of each kind: package ecosystems and `remote`. */
  artifacts: counts,
  /** Authenticated preflight evaluations recorded in the 24 hours before the report. */
  evaluations_24h: count,
});
export type StatsReport = z.infer<typeof statsReportSchema>;

export const recentQuerySchema = z.object({
  limit: integerParam("limit", 1, RECENT_LIMIT_MAX)
    .default(RECENT_LIMIT_DEFAULT)
    .describe(`how many servers, newest first, 1 to ${RECENT_LIMIT_MAX} (default ${RECENT_LIMIT_DEFAULT})`),
  cursor: z.string().min(1).max(500).optional().describe("next_cursor of the previous page"),
});
export type RecentQuery = z.infer<typeof recentQuerySchema>;

export const recentResultSchema = z.strictObject({
  ok: z.literal(true),
  count,
  servers: z.array(healthCardSchema),
  next_cursor: z.string().nullable(),
  has_more: z.boolean(),
});
export type RecentResult = z.infer<typeof recentResultSchema>;

export const sourceCoverageSchema = z.strictObject({
  /** What the source should observe among listed servers' latest versions. */
  items: count,
  observed: count,
  attempted_not_observed: count,
  never_attempted: count,
  /** Observed within the freshness target. */
  fresh: count,
  stale: count,
  /** Items whose last attempt got no answer (a gone repository or a missing package is an answer, not an error). */
  with_errors: count,
  /** observed / items, three decimals; null when there is nothing to observe. */
  coverage: z.number().min(0).max(1).nullable(),
  freshness_target_hours: z.number().positive(),
  oldest_observed_at: dateTime.nullable(),
  newest_observed_at: dateTime.nullable(),
});
export type SourceCoverage = z.infer<typeof sourceCoverageSchema>;

export const coverageReportSchema = z.strictObject({
  ok: z.literal(true),
  census: z.strictObject({
    servers_listed: count,
    servers_delisted: count,
    versions: count,
    namespaces: count,
    repositories: count,
    /** Distinct package identifiers of listed servers, by ecosystem. */
    packages: counts,
    remotes: count,
  }),
  sources: z.strictObject({
    registry: z.strictObject({ items: count, observed_at: dateTime.nullable(), last_sync_at: dateTime.nullable() }),
    repo: sourceCoverageSchema,
    jspkg: sourceCoverageSchema,
    pypkg: sourceCoverageSchema,
    vuln: sourceCoverageSchema.extend({ with_advisories: count }),
    liveness: sourceCoverageSchema.extend({ live: count, down: count }),
  }),
  identity: z.strictObject({
    namespace_verification: z.strictObject({ github: count, dns: count, none: count }),
    first_party: z.strictObject({ yes: count, no: count, unknown: count }),
    first_party_basis: counts,
    brand_claims: z.strictObject({ servers: count, unverified: count, impersonation: count }),
    servers_with_lookalikes: count,
  }),
  harvest: z.strictObject({
    last_run_at: dateTime.nullable(),
    last_success_at: dateTime.nullable(),
    running: z.boolean(),
    recent_runs: z.array(
      z.strictObject({
        id: count,
        trigger: z.string(),
        status: z.string(),
        started_at: dateTime,
        finished_at: dateTime.nullable(),
        counts: z.record(z.string(), z.unknown()).nullable(),
        stopped: z.record(z.string(), z.unknown()).nullable(),
      }),
    ),
  }),
  discovery: z.strictObject({
    last_success_at: dateTime.nullable(),
    listing_observed_at: dateTime.nullable(),
    new_servers: z.strictObject({ last_24h: count, last_7d: count, last_30d: count }),
    recent_syncs: z.array(
      z.strictObject({
        id: count,
        source: z.string(),
        origin: z.string(),
        complete: z.boolean(),
        status: z.string(),
        started_at: dateTime,
        finished_at: dateTime.nullable(),
        observed_at: dateTime.nullable(),
        entries: count,
        error: z.string().nullable(),
      }),
    ),
  }),
});
export type CoverageReport = z.infer<typeof coverageReportSchema>;

export const lookalikesResultSchema = z.strictObject({
  ok: z.literal(true),
  server_name: z.string().min(1),
  name_fold: z.string(),
  count,
  first_listed: z.string().min(1),
  lookalikes: z.array(
    z.strictObject({
      name: z.string().min(1),
      namespace: z.string().min(1),
      title: z.string().nullable(),
      registry_status: z.string().nullable(),
      first_seen_at: dateTime,
      kind: z.enum(["same_name_part", "case", "folded"]),
    }),
  ),
});
export type LookalikesResult = z.infer<typeof lookalikesResultSchema>;
