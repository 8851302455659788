import { z } from "zod";
import { HEALTH_VALUES } from "@/lib/engine/health";
import { VERIFIED_STATUSES } from "@/lib/engine/verified";
import { FACTOR_STATUSES, TRUST_PILLARS } from "@/lib/engine/trust/trust-factor";
import { factsSchema } from "@/lib/engine/facts";
import { SEARCH_LIMIT_DEFAULT, SEARCH_LIMIT_MAX, SEARCH_QUERY_MAX, SEARCH_QUERY_MIN } from "@/lib/config";
import { integerParam, serverNameParam } from "./params";

// Zod mirrors of the contract's HealthCard and SearchResult (spec/interface.md), strict: every field the
// contract lists is required, and the further fields the card carries (the contract allows them) are
// declared here one by one, so a field added or dropped by mistake fails the tests.

const dateTime = z.iso.datetime({ offset: true });
/** An absolute URL (zod's z.url() refuses hosts without a dot, such as localhost in development). */
const absoluteUrl = z.string().refine((s) => URL.canParse(s), "must be an absolute URL");

export const trustFactorSchema = z.strictObject({
  // the contract's four fields
  factor: z.string().min(1),
  points: z.number().int().nonnegative(),
  pillar: z.enum(TRUST_PILLARS),
  evidence: z.string().min(1),
  // further fields
  max: z.number().int().positive(),
  status: z.enum(FACTOR_STATUSES),
});

export const trustPillarSchema = z.strictObject({
  pillar: z.enum(TRUST_PILLARS),
  points: z.number().int().nonnegative(),
  max: z.number().int().positive(),
});

export const healthCardSchema = z.strictObject({
  // ── the contract's fields ──
  server_name: z.string().min(1).max(300),
  health: z.enum(HEALTH_VALUES),
  health_problems: z.array(z.string().min(1)),
  verified: z.boolean(),
  repo_stars: z.number().int().nonnegative().nullable(),
  months_since_push: z.number().nonnegative().nullable(),
  repo_archived: z.boolean().nullable(),
  jspkg_deprecated: z.boolean().nullable(),
  name_collision_count: z.number().int().nonnegative(),
  registry_status: z.string().min(1),
  trust_score: z.number().int().min(0).max(100),
  trust_factors: z.array(trustFactorSchema),
  trust_pillars: z.array(trustPillarSchema).length(4),
  // ── further fields ──
  /**
   * What `verified` rests on: `verified` (true), `not_verified` (a clause observed to fail), `unknown` (false only
   * because the repository or a package is not observed yet). The contract's boolean cannot say the last.
   */
  verified_status: z.enum(VERIFIED_STATUSES),
  title: z.string().nullable(),
  description: z.string().nullable(),
  namespace: z.string().min(1),
  namespace_verification: z.enum(["github", "dns"]).nullable(),
  /** The registry version the card describes (the latest listed). */
  version: z.string().nullable(),
  website_url: z.string().nullable(),
  first_seen_at: dateTime.nullable(),
  /** When the delisting was noticed; null while listed. */
  delisted_at: dateTime.nullable(),
  // the same shapes as the facts the card is built from (lib/engine/facts.ts)
  identity: factsSchema.shape.identity,
  repository: factsSchema.shape.repository,
  packages: z.array(
    z.strictObject({
      ecosystem: z.string().min(1),
      identifier: z.string().min(1),
      version: z.string().nullable(),
      url: z.string().nullable(),
      exists: z.boolean().nullable(),
      deprecated: z.boolean().nullable(),
      /** Advisory ids affecting the listed version; null when not looked up. */
      advisories: z.array(z.string()).nullable(),
      observed_at: dateTime.nullable(),
      advisories_observed_at: dateTime.nullable(),
    }),
  ),
  remotes: z.array(
    z.strictObject({
      type: z.string().min(1),
      url: z.string().min(1),
      live: z.boolean().nullable(),
      http_status: z.number().int().nullable(),
      observed_at: dateTime.nullable(),
    }),
  ),
  /** Other listed servers whose name part reads the same (at most 100; name_collision_count is the full count). */
  lookalike_names: z.array(z.string()),
  /** When each source was last observed for this server (the oldest where several artifacts are involved). */
  evidence_times: z.strictObject({
    registry: dateTime,
    repo: dateTime.nullable(),
    packages: dateTime.nullable(),
    vuln: dateTime.nullable(),
    liveness: dateTime.nullable(),
  }),
  links: z.strictObject({
    page: absoluteUrl,
    badge: absoluteUrl,
    api: absoluteUrl,
    registry: z.string().nullable(),
  }),
});
export type HealthCard = z.infer<typeof healthCardSchema>;

/** GET /v1/server: the card itself, with the `ok` every success body carries. */
export const serverCardResponseSchema = healthCardSchema.extend({ ok: z.literal(true) });
export type ServerCardResponse = z.infer<typeof serverCardResponseSchema>;

/** How a search result matched the query (a further field of cards in search results). */
export const SEARCH_MATCHES = ["exact_name", "exact_part_or_title", "similar_name_or_title", "description"] as const;

export const searchResultCardSchema = healthCardSchema.extend({ match: z.enum(SEARCH_MATCHES) });

export const searchResultSchema = z.strictObject({
  ok: z.boolean(),
  count: z.number().int().nonnegative(),
  results: z.array(searchResultCardSchema),
  // further fields
  query: z.string(),
  limit: z.number().int().min(1).max(SEARCH_LIMIT_MAX),
});
export type SearchResult = z.infer<typeof searchResultSchema>;

/**
 * Query of GET /v1/search and catalog_search's arguments: q at least 2 characters, limit 1–50 (default 20); the
 * route closes it (no other parameter). q is trimmed before its length is checked, on REST, MCP and the home
 * page's box alike (one schema): " a " is one character, and "  weather  " searches for "weather".
 */
export const searchQuerySchema = z.object({
  q: z
    // "required" only when q is absent: a q of another type (a JSON number in MCP arguments) says so
    .string({ error: (issue) => (issue.input === undefined ? "q is required" : "q must be a string") })
    .transform((s) => s.trim())
    .pipe(
      z
        .string()
        .min(SEARCH_QUERY_MIN, `q must be at least ${SEARCH_QUERY_MIN} characters, not counting whitespace at either end`)
        .max(SEARCH_QUERY_MAX, `q must be at most ${SEARCH_QUERY_MAX} characters, not counting whitespace at either end`),
    )
    // JSON Schema cannot say "after trimming": the bounds are shown on the text as sent, and the words say the rest
    .meta({ minLength: SEARCH_QUERY_MIN, maxLength: SEARCH_QUERY_MAX })
    .describe(`search text: server name, title or description words; ${SEARCH_QUERY_MIN} to ${SEARCH_QUERY_MAX} characters after whitespace at either end is trimmed`),
  limit: integerParam("limit", 1, SEARCH_LIMIT_MAX)
    .default(SEARCH_LIMIT_DEFAULT)
    .describe(`how many results, 1 to ${SEARCH_LIMIT_MAX} (default ${SEARCH_LIMIT_DEFAULT})`),
});
export type SearchQuery = z.infer<typeof searchQuerySchema>;

/** Query of GET /v1/server and the lookalikes: one exact canonical name. */
export const serverNameQuerySchema = z.object({
  name: serverNameParam("name"),
});
