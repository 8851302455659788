import os from "node:os";
import { and, eq, like } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { harvestRuns } from "@/lib/db/schema";
import { pidAlive } from "@/lib/boot/pid-alive";

/**
 * Marks `failed` the runs this host started whose process is gone (killed, crashed, the machine restarted):
 * nothing else would ever finish their rows, and coverage would go on saying a harvest is running. A run's
 * holder is `host:pid:…`; runs of other hosts cannot be checked from here and are left as they are, and a pid
 * taken by another process since reads as alive, which leaves the row running rather than failing a live run.
 */
export async function closeAbandonedRuns(db: Db, now: Date): Promise<number> {
  const host = os.hostname();
  const running = await db
    .select({ id: harvestRuns.id, holder: harvestRuns.holder })
    .from(harvestRuns)
    .where(and(eq(harvestRuns.status, "running"), like(harvestRuns.holder, `${host.replace(/[\\%_]/g, "\\$&")}:%`)));
  let closed = 0;
  for (const run of running) {
    const pid = Number(run.holder.slice(host.length + 1).split(":")[0]);
    if (!Number.isInteger(pid) || pid <= 0 || pidAlive(pid)) continue;
    await db
      .update(harvestRuns)
      .set({ status: "failed", finishedAt: now, errors: [{ source: "run", item: run.holder, error: `abandoned: process ${pid} ended before the run finished` }] })
      .where(and(eq(harvestRuns.id, run.id), eq(harvestRuns.status, "running")));
    closed++;
  }
  return closed;
}
