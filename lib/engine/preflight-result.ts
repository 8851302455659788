import type { PreflightEvaluation } from "./evaluate";

export type PreflightResultBody = { ok: true } & PreflightEvaluation & { audit_id: string | null };

/** The contract's PreflightResult, fields in the contract's order: the evaluation plus `ok` and `audit_id`. */
export function toPreflightResult(evaluation: PreflightEvaluation, auditId: string | null): PreflightResultBody {
  const { audit_signed, limitations, ...rest } = evaluation;
  return { ok: true, ...rest, audit_id: auditId, audit_signed, limitations };
}
