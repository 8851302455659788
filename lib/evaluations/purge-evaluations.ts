import { lte } from "drizzle-orm";
import type { Queryable } from "@/lib/db/client";
import { evaluations } from "@/lib/db/schema";
import { retentionCutoff } from "./retention";

/** Deletes evaluations completed 90 days or more before `now`; returns how many. */
export async function purgeEvaluations(db: Queryable, now = new Date()): Promise<number> {
  const gone = await db.delete(evaluations).where(lte(evaluations.completedAt, retentionCutoff(now))).returning({ id: evaluations.id });
  return gone.length;
}
