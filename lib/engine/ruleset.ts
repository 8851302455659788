import { RULESET_ID, RULESET_REVISION, type FindingKey } from "./policies";

// The ruleset every revision-1 policy runs (`preflight-ruleset` revision 1). The policy catalog publishes this
// object, so it says in words what each rule checks, which finding key (if any) decides its outcome, and when
// its evidence is required. Reasons in a result follow `order` within each stage; rules that apply to an
// artifact repeat for each artifact in the order the listing gives them, all rules of one artifact together.

export const RULE_STAGES = ["identity", "brand", "registry_listing", "repository", "package", "remote", "context"] as const;
export type RuleStage = (typeof RULE_STAGES)[number];

export interface RuleDescription {
  order: number;
  code: string;
  stage: RuleStage;
  /** The policy finding key whose outcome this rule applies when the finding is present; null for none. */
  finding: FindingKey | null;
  applies_to: string;
  /** When the evidence of this rule is required, so that `unknown` takes the policy's unknown_required. */
  required: string | null;
  description: string;
}

export interface Ruleset {
  id: typeof RULESET_ID;
  revision: typeof RULESET_REVISION;
  reason_order: string;
  results: Record<string, string>;
  rules: RuleDescription[];
}

const RULES: Omit<RuleDescription, "order">[] = [
  {
    code: "identity_first_party",
    stage: "identity",
    finding: null,
    applies_to: "server",
    required: "under policies with identity_requirement first_party",
    description:
      "Whether the publisher is the first party of what it serves. Under identity_requirement any it is context. Under first_party: pass when established, unknown when not established, and when the facts show it is not first party the policy's unknown_required outcome (review under first-party@1, block under strict@1).",
  },
  {
    code: "brand_impersonation",
    stage: "brand",
    finding: "brand_impersonation",
    applies_to: "server",
    required: null,
    description: "The listing presents itself as a brand's own server while its verified namespace shows it is not.",
  },
  {
    code: "brand_claim_without_identity",
    stage: "brand",
    finding: "brand_claim_without_identity",
    applies_to: "server",
    required: null,
    description:
      "The listing claims a brand that its verified namespace does not establish (not verified, or not determined).",
  },
  {
    code: "registry_listing_status",
    stage: "registry_listing",
    finding: null,
    applies_to: "server",
    required: null,
    description: "The registry listing is active: pass; any other reported status: review; no status reported: unknown.",
  },
  {
    code: "repo_gone",
    stage: "repository",
    finding: "repo_gone",
    applies_to: "repository",
    required: "always: a server listing no repository has this evidence unknown",
    description: "The repository the listing names exists on its code host.",
  },
  {
    code: "repo_archived",
    stage: "repository",
    finding: "repo_archived",
    applies_to: "repository",
    required: "when the repository was observed to exist",
    description: "The repository is archived (read-only) on its code host.",
  },
  {
    code: "repo_no_push_6mo",
    stage: "repository",
    finding: "repo_no_push_6mo",
    applies_to: "repository",
    required: "when the repository was observed to exist",
    description: "The repository's last push is more than 183 days before the evaluation time.",
  },
  {
    code: "jspkg_package_missing",
    stage: "package",
    finding: "jspkg_package_missing",
    applies_to: "each jspkg package",
    required: "always",
    description: "The JavaScript package (and the listed version, when one is listed) exists in its registry.",
  },
  {
    code: "pypkg_package_missing",
    stage: "package",
    finding: "pypkg_package_missing",
    applies_to: "each pypkg package",
    required: "always",
    description: "The Python package (and the listed version, when one is listed) exists in its registry.",
  },
  {
    code: "jspkg_deprecated",
    stage: "package",
    finding: "jspkg_deprecated",
    applies_to: "each jspkg package",
    required: "when the package was observed to exist (deprecation comes from the same registry record)",
    description: "The listed version of the JavaScript package is marked deprecated by its publisher.",
  },
  {
    code: "vuln_package_advisory",
    stage: "package",
    finding: "vuln_package_advisory",
    applies_to: "each jspkg and pypkg package",
    required: "unless the package was observed missing",
    description: "The vulnerability database has advisories affecting the listed version of the package.",
  },
  {
    code: "package_not_evaluated",
    stage: "package",
    finding: null,
    applies_to: "each package of another ecosystem (oci, nuget, mcpb, …)",
    required: null,
    description: "This ruleset revision does not check artifacts of this ecosystem; the reason is not_applicable and the artifact is named in limitations.",
  },
  {
    code: "remote_liveness",
    stage: "remote",
    finding: null,
    applies_to: "each remote",
    required: "under policies with hosted_liveness require_fresh_live",
    description:
      "Under observe_only: the last liveness observation, as context. Under require_fresh_live: pass when a live observation is no older than max_liveness_age_hours; unknown when never observed or older; the policy's unknown_required outcome when observed down.",
  },
  {
    code: "lookalike_names",
    stage: "context",
    finding: null,
    applies_to: "server",
    required: null,
    description: "Other catalog servers with the same name part under another namespace, as context.",
  },
  {
    code: "repo_stars",
    stage: "context",
    finding: null,
    applies_to: "repository, when observed",
    required: null,
    description: "The repository's star count, as context; it never changes a decision.",
  },
];

export const RULE_CODES = RULES.map((r) => r.code);
export type RuleCode =
  | "identity_first_party"
  | FindingKey
  | "registry_listing_status"
  | "package_not_evaluated"
  | "remote_liveness"
  | "lookalike_names"
  | "repo_stars";

export const RULESET: Readonly<Ruleset> = Object.freeze({
  id: RULESET_ID,
  revision: RULESET_REVISION,
  reason_order:
    "Stages in this order: identity, brand, registry_listing, repository, package, remote, context. Within a stage, rules by `order`; rules that apply to an artifact run for each artifact in listing order, all rules of one artifact together.",
  results: {
    pass: "the rule holds on the facts",
    review: "a finding whose policy outcome is review, or an unmet requirement under a review policy",
    block: "a finding whose policy outcome is block, or an unmet requirement under a block policy",
    context: "information only; never changes a decision",
    not_applicable: "the rule does not apply to this artifact in this ruleset revision",
    unknown: "the evidence was not observed; when required it takes the policy's unknown_required outcome",
  },
  rules: RULES.map((r, i) => ({ order: i + 1, ...r })),
});

const ORDER_BY_CODE = new Map(RULESET.rules.map((r) => [r.code, r.order]));
const STAGE_BY_CODE = new Map(RULESET.rules.map((r) => [r.code, r.stage]));

export function ruleOrder(code: string): number | undefined {
  return ORDER_BY_CODE.get(code);
}

export function ruleStage(code: string): RuleStage | undefined {
  return STAGE_BY_CODE.get(code);
}
