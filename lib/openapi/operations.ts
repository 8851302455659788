import { z, type ZodType } from "zod";
import { CREDIT_COSTS, ANONYMOUS_DAILY_LOOKUPS } from "@/lib/config";
import {
  evaluationDetailResponseSchema,
  evaluationListSchema,
  policyCatalogSchema,
  preflightInputSchema,
  preflightResultSchema,
  stampInputSchema,
} from "@/lib/schemas/preflight";
import { searchQuerySchema, searchResultSchema, serverCardResponseSchema, serverNameQuerySchema } from "@/lib/schemas/health-card";
import { coverageReportSchema, lookalikesResultSchema, recentQuerySchema, recentResultSchema, statsReportSchema } from "@/lib/schemas/reports";
import {
  watchCreateResponseSchema,
  watchDeleteQuerySchema,
  watchDeleteResponseSchema,
  watchDeliveriesQuerySchema,
  watchDeliveriesResponseSchema,
  watchInputSchema,
  watchListResponseSchema,
  watchRotateResponseSchema,
} from "@/lib/schemas/watch";
import { auditQuerySchema, auditResultSchema, resolveQuerySchema, resolveResultSchema } from "@/lib/schemas/config-audit";
import { changeFeedQuerySchema, changeFeedResponseSchema } from "@/lib/schemas/changes";
import { creditsResultSchema } from "@/lib/schemas/credits";
import { errorBodySchema } from "@/lib/schemas/error";
import { stampResultSchema, stampTextSchema } from "@/lib/schemas/stamp";

// Every HTTP operation of the API, described once from the zod schemas its route parses with (requests) and
// its tests check responses against (responses). buildOpenApiDocument turns this table into OpenAPI 3.1; the
// /docs page renders that document. Adding a route means adding a row here (a test compares the table with
// the route files under app/v1).

/** Named schemas: request bodies are read as zod input, responses as zod output. */
export const REQUEST_COMPONENTS = {
  PreflightInput: preflightInputSchema,
  WatchInput: watchInputSchema,
} satisfies Record<string, ZodType>;

export const RESPONSE_COMPONENTS = {
  Error: errorBodySchema,
  PolicyCatalog: policyCatalogSchema,
  PreflightResult: preflightResultSchema,
  EvaluationList: evaluationListSchema,
  EvaluationDetailResponse: evaluationDetailResponseSchema,
  SearchResult: searchResultSchema,
  HealthCardResponse: serverCardResponseSchema,
  LookalikesResult: lookalikesResultSchema,
  StatsReport: statsReportSchema,
  RecentResult: recentResultSchema,
  CoverageReport: coverageReportSchema,
  WatchCreateResponse: watchCreateResponseSchema,
  WatchListResponse: watchListResponseSchema,
  WatchDeleteResponse: watchDeleteResponseSchema,
  WatchRotateResponse: watchRotateResponseSchema,
  WatchDeliveriesResponse: watchDeliveriesResponseSchema,
  CreditsResult: creditsResultSchema,
  AuditResult: auditResultSchema,
  ResolveResult: resolveResultSchema,
  ChangeFeed: changeFeedResponseSchema,
  /** catalog_stamp's structured content; GET /v1/stamp answers its `stamp` line as text/plain. */
  StampResult: stampResultSchema,
  HealthCheck: z.strictObject({ ok: z.literal(true) }),
} satisfies Record<string, ZodType>;

export type RequestComponent = keyof typeof REQUEST_COMPONENTS;
export type ResponseComponent = keyof typeof RESPONSE_COMPONENTS;

export type Auth = "none" | "optional" | "required";

export interface ApiOperation {
  method: "get" | "post" | "delete";
  /** OpenAPI path template. */
  path: string;
  operationId: string;
  tag: "Decisions" | "Catalog" | "Reports" | "Watches" | "Account" | "Config audit" | "Service";
  summary: string;
  description: string;
  /** x-api-key: none (never read), optional (anonymous allowance without it), required (401 without it). */
  auth: Auth;
  /** What a call costs, in words (also x-cost in the document). */
  cost: string;
  /** The query schema the route parses (zod input side), one parameter per property. */
  query?: ZodType;
  /** Path parameters: name → schema. */
  pathParams?: Record<string, ZodType>;
  /**
   * Words for a path parameter, or in place of a query parameter's own: a query parameter is described by its
   * zod schema (`.describe()` in lib/schemas), which MCP's tools/list shows too, so the two cannot drift.
   */
  paramDocs?: Record<string, string>;
  body?: { component: RequestComponent } | { raw: { description: string; contentTypes: string[] } };
  /** `text`: an example of a text/plain answer, `textSchema` what every such answer matches. */
  response: { status: 200; description: string; component?: ResponseComponent; text?: string; textSchema?: ZodType<string> };
  /** Error statuses this operation can answer with the Error body (the document adds 400 to every one, and 429 to counted ones). */
  errors: number[];
  /** The MCP tool that does the same (MCP is listed separately on /docs). */
  mcpTool?: string;
  /** Adds the quota headers to the 200. */
  metered?: boolean;
  cacheable?: boolean;
}

const credits = (n: number) => `${n} credit${n === 1 ? "" : "s"}`;
const ANON = `without a key, one of the IP's ${ANONYMOUS_DAILY_LOOKUPS} distinct lookups a day`;

export const API_OPERATIONS: ApiOperation[] = [
  {
    method: "get",
    path: "/v1/policies",
    operationId: "listPolicies",
    tag: "Decisions",
    summary: "The three immutable policies and the ruleset they run",
    description: "baseline@1, first-party@1 and strict@1 with their findings and digests, and the ruleset (rule order, what each rule checks, when its evidence is required).",
    auth: "none",
    cost: "unmetered",
    response: { status: 200, description: "PolicyCatalog", component: "PolicyCatalog" },
    errors: [],
    mcpTool: "catalog_policy_list",
  },
  {
    method: "post",
    path: "/v1/preflight",
    operationId: "preflight",
    tag: "Decisions",
    summary: "PASS, REVIEW or BLOCK for one exact server under one policy",
    description:
      "Evaluates the stored facts of one exact, case-sensitive canonical server name under an immutable policy and returns the decision with ordered reasons, the facts, source times, a validity window and reproducibility digests. A PASS is not a security finding, not an install or execution authorization and not a sandbox. refresh=if_stale (key required) re-probes the server's stored endpoints when their liveness is stale. A keyed call's evaluation is recorded (audit_id) before it is paid for.",
    auth: "optional",
    cost: `${credits(CREDIT_COSTS.preflight)} (a repeat of the same policy and name the same UTC day is free); ${ANON}`,
    body: { component: "PreflightInput" },
    response: { status: 200, description: "PreflightResult", component: "PreflightResult" },
    // 413: readJsonBody refuses a body over 64 KiB before parsing it
    errors: [400, 401, 402, 404, 409, 413, 429, 503],
    mcpTool: "catalog_preflight",
    metered: true,
  },
  {
    method: "get",
    path: "/v1/stamp",
    operationId: "stamp",
    tag: "Decisions",
    summary: "The preflight decision as one CATALOG-STAMP/1 line",
    description: "Same input rules, errors, cost and recording as preflight, answered as one text/plain line.",
    auth: "optional",
    cost: `${credits(CREDIT_COSTS.stamp)}; ${ANON}`,
    query: stampInputSchema,
    paramDocs: { name: "the exact canonical server name (as server_name in preflight)" },
    response: {
      status: 200,
      description: "One line of text",
      text: `CATALOG-STAMP/1 REVIEW io.github.acme/weather builtin:baseline@1 facts=sha256:${"4e1c".repeat(16)} input=sha256:${"9b07".repeat(16)} at=2026-03-01T00:00:00.000Z until=2026-03-02T00:00:00.000Z audit=-\n`,
      textSchema: stampTextSchema,
    },
    errors: [400, 401, 402, 404, 409, 429, 503],
    mcpTool: "catalog_stamp",
    metered: true,
  },
  {
    method: "get",
    path: "/v1/evaluations",
    operationId: "listEvaluations",
    tag: "Decisions",
    summary: "The account's recorded evaluations, newest first (up to 50)",
    description: "Evaluations made with a key of this account in the last 90 days.",
    auth: "required",
    cost: "key only",
    response: { status: 200, description: "EvaluationList", component: "EvaluationList" },
    errors: [401],
  },
  {
    method: "get",
    path: "/v1/evaluations/{id}",
    operationId: "getEvaluation",
    tag: "Decisions",
    summary: "One recorded evaluation with its facts and reasons",
    description: "Another account's id, a malformed id and an expired one are the same 404. `npm run verify` re-checks a saved body offline.",
    auth: "required",
    cost: "key only",
    pathParams: { id: z.uuid() },
    paramDocs: { id: "the audit_id of a keyed preflight" },
    response: { status: 200, description: "EvaluationDetailResponse", component: "EvaluationDetailResponse" },
    errors: [401, 404],
  },
  {
    method: "get",
    path: "/v1/search",
    operationId: "search",
    tag: "Catalog",
    summary: "Find servers by name, title or description",
    description:
      "HealthCards ranked: exact name, then name part or title (or a package, repository or remote URL the listing names), then similar (typo-tolerant) names, then descriptions; ties broken by trust score. Only listed servers are searched.",
    auth: "optional",
    cost: `${credits(CREDIT_COSTS.search)} per distinct query a day; ${ANON}`,
    query: searchQuerySchema,
    response: { status: 200, description: "SearchResult", component: "SearchResult" },
    errors: [400, 401, 402, 429],
    mcpTool: "catalog_search",
    metered: true,
  },
  {
    method: "get",
    path: "/v1/server",
    operationId: "getServer",
    tag: "Catalog",
    summary: "The evidence card (HealthCard) of one exact server",
    description: "Health, verified, the trust score with every factor's points and evidence, repository, packages, remotes, lookalikes and evidence times.",
    auth: "optional",
    cost: `${credits(CREDIT_COSTS.lookup)} per server a day; ${ANON}`,
    query: serverNameQuerySchema,
    response: { status: 200, description: "HealthCard plus ok", component: "HealthCardResponse" },
    errors: [400, 401, 402, 404, 429],
    mcpTool: "catalog_lookup",
    metered: true,
  },
  {
    method: "get",
    path: "/v1/lookalikes",
    operationId: "listLookalikes",
    tag: "Catalog",
    summary: "Other listed servers whose name reads the same",
    description: "Case, separators and homoglyphs folded; oldest first, with which of the group the registry listed first.",
    auth: "optional",
    cost: `${credits(CREDIT_COSTS.lookalikes)} per server a day; ${ANON}`,
    query: serverNameQuerySchema,
    response: { status: 200, description: "LookalikesResult", component: "LookalikesResult" },
    errors: [400, 401, 402, 404, 429],
    mcpTool: "catalog_lookalikes",
    metered: true,
  },
  {
    method: "get",
    path: "/v1/stats",
    operationId: "getStats",
    tag: "Reports",
    summary: "Headline counts of the catalog",
    description: "Listed and delisted servers, health, problems, verified, artifacts, evaluations in the last 24 h. Cache-Control and ETag (304 on If-None-Match).",
    auth: "none",
    cost: "unmetered",
    response: { status: 200, description: "StatsReport", component: "StatsReport" },
    errors: [],
    mcpTool: "catalog_stats",
    cacheable: true,
  },
  {
    method: "get",
    path: "/v1/recent",
    operationId: "listRecent",
    tag: "Reports",
    summary: "Newest servers by first_seen_at",
    description: "HealthCards, newest first, keyset-paginated: pass next_cursor back as cursor.",
    auth: "none",
    cost: "unmetered",
    query: recentQuerySchema,
    response: { status: 200, description: "RecentResult", component: "RecentResult" },
    errors: [400],
    mcpTool: "catalog_recent",
    cacheable: true,
  },
  {
    method: "get",
    path: "/v1/coverage",
    operationId: "getCoverage",
    tag: "Reports",
    summary: "Census, source coverage and freshness, identity evidence, harvest and discovery state",
    description: "What the catalog knows and how fresh it is, per source.",
    auth: "none",
    cost: "unmetered",
    response: { status: 200, description: "CoverageReport", component: "CoverageReport" },
    errors: [],
    mcpTool: "catalog_coverage",
    cacheable: true,
  },
  {
    method: "get",
    path: "/v1/changes",
    operationId: "listChanges",
    tag: "Reports",
    summary: "The change feed: observed transitions of every server",
    description:
      "Without since: the newest page (oldest first within it). Poll forward with since=next_cursor (hourly is plenty); browse back with before=older_cursor. Filter by kind and by one exact server.",
    auth: "none",
    cost: "unmetered",
    query: changeFeedQuerySchema,
    response: { status: 200, description: "ChangeFeed", component: "ChangeFeed" },
    errors: [400],
    mcpTool: "catalog_changes",
  },
  {
    method: "post",
    path: "/v1/watch",
    operationId: "createWatch",
    tag: "Watches",
    summary: "Watch one server: signed webhook, e-mail, or both",
    description:
      "Creates the key's account's watch of one server, or updates it when the same target already watches it. The response that creates a watch carries its whsec_ secret, once. Events default to all five kinds.",
    auth: "required",
    cost: `${credits(CREDIT_COSTS.watch_subscribe)} on creation, once per server and UTC day; 5 active watches on a registered key, 50 on pro`,
    body: { component: "WatchInput" },
    response: { status: 200, description: "Created or updated", component: "WatchCreateResponse" },
    errors: [400, 401, 402, 403, 404, 413, 429],
    mcpTool: "catalog_watch_subscribe",
    metered: true,
  },
  {
    method: "get",
    path: "/v1/watch",
    operationId: "listWatches",
    tag: "Watches",
    summary: "The account's active watches",
    description: "Without secrets.",
    auth: "required",
    cost: "key only",
    response: { status: 200, description: "WatchListResponse", component: "WatchListResponse" },
    errors: [401],
    mcpTool: "catalog_watch_list",
  },
  {
    method: "delete",
    path: "/v1/watch",
    operationId: "deleteWatch",
    tag: "Watches",
    summary: "Unsubscribe one watch",
    description: "active → unsubscribed; its undelivered events are cancelled.",
    auth: "required",
    cost: "key only",
    query: watchDeleteQuerySchema,
    response: { status: 200, description: "WatchDeleteResponse", component: "WatchDeleteResponse" },
    errors: [400, 401, 404],
    mcpTool: "catalog_watch_unsubscribe",
  },
  {
    method: "get",
    path: "/v1/watch/deliveries",
    operationId: "listWatchDeliveries",
    tag: "Watches",
    summary: "A watch's newest deliveries with every attempt",
    description: "Status code, error and duration of each attempt, and when the next one is due.",
    auth: "required",
    cost: "key only",
    query: watchDeliveriesQuerySchema,
    response: { status: 200, description: "WatchDeliveriesResponse", component: "WatchDeliveriesResponse" },
    errors: [400, 401, 404],
  },
  {
    method: "post",
    path: "/v1/watch/rotate-secret",
    operationId: "rotateWatchSecret",
    tag: "Watches",
    summary: "A new signing secret for one watch, shown in this response only",
    description: "The old secret stops signing at once.",
    auth: "required",
    cost: "key only",
    query: watchDeleteQuerySchema,
    response: { status: 200, description: "WatchRotateResponse", component: "WatchRotateResponse" },
    errors: [400, 401, 404],
  },
  {
    method: "get",
    path: "/v1/credits",
    operationId: "getCredits",
    tag: "Account",
    summary: "The key's wallet: remaining, grant, purchased",
    description: "The monthly grant refills on the first call of each UTC month.",
    auth: "required",
    cost: "unmetered",
    response: { status: 200, description: "CreditsResult", component: "CreditsResult" },
    errors: [401],
    mcpTool: "catalog_credits",
  },
  {
    method: "post",
    path: "/v1/audit",
    operationId: "auditConfig",
    tag: "Config audit",
    summary: "A verdict for every server in a whole MCP config file",
    description:
      "PASS, REVIEW, BLOCK, or UNKNOWN when the catalog has no row for an entry. The exit code (0 all clear, 1 any BLOCK, with strict=1 2 on any REVIEW or UNKNOWN) is in the body and in x-catalog-exit-code. accept: text/plain gives one VERDICT<TAB>key<TAB>server<TAB>reason line per entry.",
    auth: "optional",
    cost: `${credits(CREDIT_COSTS.config_audit)} per distinct config a day (up to 100 entries); without a key one config of up to 25 entries per IP a day`,
    query: auditQuerySchema,
    body: { raw: { description: "The config file as it is on disk: JSON, JSON with comments, TOML or YAML, up to 256 KiB", contentTypes: ["text/plain", "application/json", "application/toml"] } },
    response: { status: 200, description: "AuditResult (or text/plain lines)", component: "AuditResult" },
    errors: [400, 401, 402, 413, 429],
    mcpTool: "catalog_audit_config",
    metered: true,
  },
  {
    method: "post",
    path: "/v1/resolve",
    operationId: "resolveConfig",
    tag: "Config audit",
    summary: "How each config entry resolves to a registry server, without verdicts",
    description: "The audit's parsing and resolution only.",
    auth: "none",
    cost: "unmetered",
    query: resolveQuerySchema,
    body: { raw: { description: "The config file as it is on disk", contentTypes: ["text/plain", "application/json", "application/toml"] } },
    response: { status: 200, description: "ResolveResult", component: "ResolveResult" },
    errors: [400, 413],
  },
  {
    method: "get",
    path: "/v1/health",
    operationId: "health",
    tag: "Service",
    summary: "The HTTP layer is up",
    description: "No database, no auth.",
    auth: "none",
    cost: "unmetered",
    response: { status: 200, description: "{ok: true}", component: "HealthCheck" },
    errors: [],
  },
  {
    method: "get",
    path: "/v1/openapi.json",
    operationId: "openapi",
    tag: "Service",
    summary: "This document",
    description: "OpenAPI 3.1, generated from the zod schemas the routes parse with.",
    auth: "none",
    cost: "unmetered",
    response: { status: 200, description: "An OpenAPI 3.1 document" },
    errors: [],
  },
];
