import type { PreflightEvaluation } from "./evaluate";

export const STAMP_FORMAT = "CATALOG-STAMP/1" as const;

export type StampInput = Pick<
  PreflightEvaluation,
  "decision" | "server_name" | "facts_digest" | "decision_input_digest" | "evaluated_at" | "valid_until"
> & { policy: { id: string; revision: number } };

/**
 * The one line of DESIGN §10:
 * `CATALOG-STAMP/1 <decision> <server_name> <policy_id>@1 facts=<digest> input=<digest> at=<evaluated_at>
 * until=<valid_until> audit=<uuid or ->`. No trailing newline; the transport adds one if it wants.
 */
export function formatStamp(result: StampInput, auditId: string | null): string {
  return [
    STAMP_FORMAT,
    result.decision,
    result.server_name,
    `${result.policy.id}@${result.policy.revision}`,
    `facts=${result.facts_digest}`,
    `input=${result.decision_input_digest}`,
    `at=${result.evaluated_at}`,
    `until=${result.valid_until}`,
    `audit=${auditId ?? "-"}`,
  ].join(" ");
}
