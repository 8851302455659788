import os from "node:os";
import { and, eq, like } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { harvestRuns } from "@/lib/db/schema";
import { randomUUID } from "node:crypto";
import { pidAlive, processStartTicks } from "@/lib/boot/pid-alive";

/**
 * This process as a run's holder: `host:pid:token`, and `:t<start>` with the process's start time where /proc has
 * it, so that the pid, once a later process has it (routine in a container), no longer passes for the holder.
 */
export function runHolder(): string {
  const start = processStartTicks(process.pid);
  return `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}${start ? `:t${start}` : ""}`;
}

/** Whether the process a holder names is still running: its pid is alive and, where recorded, started when it did. */
function holderAlive(fields: string[]): boolean {
  const pid = Number(fields[0]);
  if (!Number.isInteger(pid) || pid <= 0) return true; // not a holder this code wrote: leave it
  if (!pidAlive(pid)) return false;
  const start = fields.find((f) => /^t\d+$/.test(f))?.slice(1);
  const now = start ? processStartTicks(pid) : null;
  return !start || now === null || now === start;
}

/**
 * Marks `failed` the runs this host started whose process is gone (killed, crashed, the machine restarted):
 * nothing else would ever finish their rows, and coverage would go on saying a harvest is running. A run's
 * holder is `host:pid:…` (runHolder); runs of other hosts cannot be checked from here and are left as they are.
 * A pid taken by another process since is told apart by its start time where the holder records one; a holder
 * without one (written before it was recorded) reads as alive, leaving the row running rather than failing a live run.
 */
export async function closeAbandonedRuns(db: Db, now: Date): Promise<number> {
  const host = os.hostname();
  const running = await db
    .select({ id: harvestRuns.id, holder: harvestRuns.holder })
    .from(harvestRuns)
    .where(and(eq(harvestRuns.status, "running"), like(harvestRuns.holder, `${host.replace(/[\\%_]/g, "\\$&")}:%`)));
  let closed = 0;
  for (const run of running) {
    const fields = run.holder.slice(host.length + 1).split(":");
    if (holderAlive(fields)) continue;
    const pid = fields[0];
    await db
      .update(harvestRuns)
      .set({ status: "failed", finishedAt: now, errors: [{ source: "run", item: run.holder, error: `abandoned: process ${pid} ended before the run finished` }] })
      .where(and(eq(harvestRuns.id, run.id), eq(harvestRuns.status, "running")));
    closed++;
  }
  return closed;
}
