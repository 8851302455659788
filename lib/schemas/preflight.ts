import { z } from "zod";
import { factsSchema } from "@/lib/engine/facts";
import { FINDING_OUTCOMES, POLICY_IDS, RULESET_ID } from "@/lib/engine/policies";
import { RULE_STAGES } from "@/lib/engine/ruleset";
import { DECISIONS, DECISION_SCOPE, REASON_RESULTS } from "@/lib/engine/types";
import { requiredText, serverNameParam } from "./params";

// Zod mirrors of the contract's preflight resources (spec/interface.md). `.strict()` (z.strictObject) wherever
// the contract calls an object closed or the issue asks for a strict mirror; every listed field is required
// unless the contract marks it optional. Shared by the REST handlers, the MCP tools, the docs and the tests.

export const digestSchema = z.string().regex(/^sha256:[0-9a-f]{64}$/);
export const dateTimeSchema = z.iso.datetime({ offset: true });
export const policyIdSchema = z.enum(POLICY_IDS);
export const decisionSchema = z.enum(DECISIONS);
export const reasonResultSchema = z.enum(REASON_RESULTS);

// the words of each field are shown by /v1/openapi.json and by MCP's tools/list (catalog_preflight, catalog_stamp)
export const preflightInputSchema = z.strictObject({
  server_name: serverNameParam("server_name"),
  policy_id: policyIdSchema.default("builtin:baseline").describe("the immutable built-in policy to decide under (default builtin:baseline)"),
  refresh: z
    .enum(["never", "if_stale"])
    .default("never")
    .describe("never (default): decide on stored evidence; if_stale: first re-probe the server's stored endpoints if their liveness is stale (needs an API key)"),
});
export type PreflightInput = z.infer<typeof preflightInputSchema>;

// Reasons and evidence are not called closed by the contract, but it lists all their fields and we emit no
// others, so checking our own responses strictly catches drift.
export const preflightEvidenceSchema = z.strictObject({
  source: z.string().optional(),
  url: z.url().nullable().optional(),
  value: z.json().optional(),
  observed_at: dateTimeSchema.nullable().optional(),
  attempted_at: dateTimeSchema.nullable().optional(),
  freshness_enforced: z.boolean().optional(),
  canonical_evidence_id: z.string().optional(),
});

export const preflightReasonSchema = z.strictObject({
  code: z.string().min(1),
  result: reasonResultSchema,
  summary: z.string().min(1),
  ecosystem: z.string().optional(),
  artifact_id: z.string().optional(),
  evidence: z.array(preflightEvidenceSchema),
});

export const preflightResultSchema = z.strictObject({
  ok: z.literal(true),
  decision: decisionSchema,
  decision_scope: z.literal(DECISION_SCOPE),
  meaning: z.string().min(1),
  server_name: z.string().min(1),
  policy: z.strictObject({ id: policyIdSchema, revision: z.literal(1), digest: digestSchema }),
  reasons: z.array(preflightReasonSchema),
  facts: factsSchema,
  facts_digest: digestSchema,
  decision_input_digest: digestSchema,
  engine_version: z.string().min(1),
  evaluated_at: dateTimeSchema,
  valid_until: dateTimeSchema,
  audit_id: z.uuid().nullable(),
  audit_signed: z.literal(false),
  limitations: z.array(z.string()),
});
export type PreflightResult = z.infer<typeof preflightResultSchema>;

const f = FINDING_OUTCOMES;
export const findingsSchema = z.strictObject({
  brand_impersonation: z.literal(f.brand_impersonation),
  brand_claim_without_identity: z.literal(f.brand_claim_without_identity),
  repo_gone: z.literal(f.repo_gone),
  repo_archived: z.literal(f.repo_archived),
  jspkg_package_missing: z.literal(f.jspkg_package_missing),
  pypkg_package_missing: z.literal(f.pypkg_package_missing),
  jspkg_deprecated: z.literal(f.jspkg_deprecated),
  repo_no_push_6mo: z.literal(f.repo_no_push_6mo),
  vuln_package_advisory: z.literal(f.vuln_package_advisory),
});

export const preflightPolicySchema = z.strictObject({
  schema_version: z.literal(1),
  id: policyIdSchema,
  revision: z.literal(1),
  ruleset_id: z.literal(RULESET_ID),
  ruleset_revision: z.literal(1),
  name: z.enum(["baseline@1", "first-party@1", "strict@1"]),
  identity_requirement: z.enum(["any", "first_party"]),
  hosted_liveness: z.enum(["observe_only", "require_fresh_live"]),
  max_liveness_age_hours: z.literal(48).optional(),
  unknown_required: z.enum(["review", "block"]),
  findings: findingsSchema,
});

// The contract does not show the ruleset's contents; this is ours (lib/engine/ruleset.ts).
export const rulesetSchema = z.strictObject({
  id: z.literal(RULESET_ID),
  revision: z.literal(1),
  reason_order: z.string(),
  results: z.record(reasonResultSchema, z.string()),
  rules: z.array(
    z.strictObject({
      order: z.number().int().positive(),
      code: z.string().min(1),
      stage: z.enum(RULE_STAGES),
      finding: z.enum(Object.keys(FINDING_OUTCOMES) as [keyof typeof f, ...(keyof typeof f)[]]).nullable(),
      applies_to: z.string(),
      required: z.string().nullable(),
      description: z.string(),
    }),
  ),
});

export const policyCatalogSchema = z.strictObject({
  ok: z.literal(true),
  policies: z.array(preflightPolicySchema).length(3),
  ruleset: rulesetSchema,
  policy_digests: z.record(policyIdSchema, digestSchema),
  audit_signed: z.literal(false),
});
export type PolicyCatalog = z.infer<typeof policyCatalogSchema>;

const evaluationSummaryShape = {
  audit_id: z.uuid(),
  server_name: z.string().min(1),
  policy_id: policyIdSchema,
  policy_revision: z.number().int(),
  decision: decisionSchema,
  decision_scope: z.literal(DECISION_SCOPE),
  facts_digest: digestSchema,
  policy_digest: digestSchema,
  decision_input_digest: digestSchema,
  engine_version: z.string().min(1),
  evaluated_at: dateTimeSchema,
  valid_until: dateTimeSchema,
  audit_signed: z.literal(false),
};

export const evaluationSummarySchema = z.strictObject(evaluationSummaryShape);
export type EvaluationSummary = z.infer<typeof evaluationSummarySchema>;

export const evaluationListSchema = z
  .strictObject({
    ok: z.literal(true),
    count: z.number().int().min(0).max(50),
    evaluations: z.array(evaluationSummarySchema).max(50),
  })
  .refine((l) => l.count === l.evaluations.length, { message: "count must equal the number of evaluations", path: ["count"] });
export type EvaluationList = z.infer<typeof evaluationListSchema>;

export const evaluationDetailSchema = z.strictObject({
  ...evaluationSummaryShape,
  ruleset_id: z.literal(RULESET_ID),
  ruleset_revision: z.literal(1),
  facts: factsSchema,
  reasons: z.array(preflightReasonSchema),
});
export type EvaluationDetail = z.infer<typeof evaluationDetailSchema>;

export const evaluationDetailResponseSchema = z.strictObject({
  ok: z.literal(true),
  evaluation: evaluationDetailSchema,
});
export type EvaluationDetailResponse = z.infer<typeof evaluationDetailResponseSchema>;

/** GET /v1/stamp query: the preflight input under query names (`name` for server_name); closed. */
export const stampInputSchema = z
  .strictObject({
    name: serverNameParam("name"),
    policy_id: preflightInputSchema.shape.policy_id,
    refresh: preflightInputSchema.shape.refresh,
  })
  .transform(({ name, ...rest }): PreflightInput => ({ server_name: name, ...rest }));
