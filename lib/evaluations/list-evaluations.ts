import { and, desc, eq, gt } from "drizzle-orm";
import type { Queryable } from "@/lib/db/client";
import { evaluations } from "@/lib/db/schema";
import type { EvaluationList } from "@/lib/schemas/preflight";
import { EVALUATION_LIST_LIMIT, retentionCutoff } from "./retention";
import { toEvaluationSummary } from "./evaluation-views";

/** An account's evaluations, newest first, at most 50, none past retention even before the purge runs. */
export async function listEvaluations(db: Queryable, accountId: string, now = new Date()): Promise<EvaluationList> {
  const rows = await db
    .select()
    .from(evaluations)
    .where(and(eq(evaluations.accountId, accountId), gt(evaluations.completedAt, retentionCutoff(now))))
    .orderBy(desc(evaluations.evaluatedAt), desc(evaluations.id))
    .limit(EVALUATION_LIST_LIMIT);
  return { ok: true, count: rows.length, evaluations: rows.map(toEvaluationSummary) };
}
