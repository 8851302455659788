import { and, desc, eq, getTableColumns, gt } from "drizzle-orm";
import type { Queryable } from "@/lib/db/client";
import { evaluations } from "@/lib/db/schema";
import type { EvaluationList } from "@/lib/schemas/preflight";
import { EVALUATION_LIST_LIMIT, retentionCutoff } from "./retention";
import { toEvaluationSummary } from "./evaluation-views";

/** An account's evaluations, newest first, at most 50, none past retention even before the purge runs. */
export async function listEvaluations(db: Queryable, accountId: string, now = new Date()): Promise<EvaluationList> {
  // every column but the 7 KB of facts, reasons and limitations a summary does not show
  const { facts: _facts, reasons: _reasons, limitations: _limitations, ...summaryColumns } = getTableColumns(evaluations);
  const rows = await db
    .select(summaryColumns)
    .from(evaluations)
    .where(and(eq(evaluations.accountId, accountId), gt(evaluations.completedAt, retentionCutoff(now))))
    .orderBy(desc(evaluations.evaluatedAt), desc(evaluations.id))
    .limit(EVALUATION_LIST_LIMIT);
  return { ok: true, count: rows.length, evaluations: rows.map(toEvaluationSummary) };
}
