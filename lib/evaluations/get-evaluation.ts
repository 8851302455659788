import { and, eq, gt } from "drizzle-orm";
import type { Queryable } from "@/lib/db/client";
import { evaluations } from "@/lib/db/schema";
import type { EvaluationDetailResponse } from "@/lib/schemas/preflight";
import { ApiError } from "@/lib/api/errors";
import { clipForMessage } from "@/lib/api/request";
import { retentionCutoff } from "./retention";
import { toEvaluationDetail } from "./evaluation-views";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * One evaluation of the caller's account. Another account's id, a malformed id
 * and an expired one are all the same 404: ids are not an oracle.
 */
export async function getEvaluation(db: Queryable, accountId: string, id: string, now = new Date()): Promise<EvaluationDetailResponse> {
  // quoted as JSON: an id is the caller's text, and may hold control characters (a NUL) the message must not carry
  const notFound = new ApiError("not_found", `no evaluation ${JSON.stringify(clipForMessage(id, 64))} for this account`);
  if (!UUID.test(id)) throw notFound;
  const [row] = await db
    .select()
    .from(evaluations)
    .where(and(eq(evaluations.id, id.toLowerCase()), eq(evaluations.accountId, accountId), gt(evaluations.completedAt, retentionCutoff(now))))
    .limit(1);
  if (!row) throw notFound;
  return { ok: true, evaluation: toEvaluationDetail(row) };
}
