/** An entry's verdict: the preflight decision of its server, or UNKNOWN when it resolves to none. */
export type Verdict = "PASS" | "REVIEW" | "BLOCK" | "UNKNOWN";

export const VERDICTS: readonly Verdict[] = ["PASS", "REVIEW", "BLOCK", "UNKNOWN"];

/**
 * The exit code a CI step uses (contract, Config audit): 1 when any entry is BLOCK; otherwise, with
 * `strict`, 2 when any is REVIEW or UNKNOWN; otherwise 0. A file with no entries exits 0.
 */
export function auditExitCode(verdicts: Iterable<Verdict>, strict: boolean): 0 | 1 | 2 {
  let soft = false;
  for (const v of verdicts) {
    if (v === "BLOCK") return 1;
    if (v === "REVIEW" || v === "UNKNOWN") soft = true;
  }
  return strict && soft ? 2 : 0;
}

export function countVerdicts(verdicts: Iterable<Verdict>): Record<Verdict, number> & { total: number } {
  const counts = { PASS: 0, REVIEW: 0, BLOCK: 0, UNKNOWN: 0, total: 0 };
  for (const v of verdicts) {
    counts[v]++;
    counts.total++;
  }
  return counts;
}
