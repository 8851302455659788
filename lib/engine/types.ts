// TypeScript shapes of the contract's decision objects (spec/interface.md). The zod mirrors in
// lib/schemas/preflight.ts check responses against the same shapes; the engine itself stays free of zod
// on its hot path.

export const DECISIONS = ["PASS", "REVIEW", "BLOCK"] as const;
export type Decision = (typeof DECISIONS)[number];

export const REASON_RESULTS = ["pass", "review", "block", "context", "not_applicable", "unknown"] as const;
export type ReasonResult = (typeof REASON_RESULTS)[number];

export const DECISION_SCOPE = "public_evidence_policy" as const;

/** Every field is optional in the contract; the engine always fills source, url, value, times and freshness. */
export interface PreflightEvidence {
  source?: string;
  url?: string | null;
  value?: unknown;
  observed_at?: string | null;
  attempted_at?: string | null;
  freshness_enforced?: boolean;
  canonical_evidence_id?: string;
}

export interface PreflightReason {
  code: string;
  result: ReasonResult;
  summary: string;
  ecosystem?: string;
  artifact_id?: string;
  evidence: PreflightEvidence[];
}
