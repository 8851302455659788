import os from "node:os";
import { and, eq, like, lt, notLike } from "drizzle-orm";
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
 * A cron run of another host is closed by its age instead: the platform ends a cron function within its time limit
 * (300 s, the route's maxDuration), so one still running an hour after it started was ended before it could finish
 * its row (on Vercel every invocation may be another host, and nothing else would close it).
 */
export async function closeAbandonedRuns(db: Db, now: Date): Promise<number> {
  const host = os.hostname();
  // this host's holders (`host:pid:…`), as a LIKE pattern
  const ofThisHost = `${host.replace(/[\\%_]/g, "\\$&")}:%`;
  const running = await db
    .select({ id: harvestRuns.id, holder: harvestRuns.holder })
    .from(harvestRuns)
    .where(and(eq(harvestRuns.status, "running"), like(harvestRuns.holder, ofThisHost)));
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
  const stale = await db
    .update(harvestRuns)
    .set({
      status: "failed",
      finishedAt: now,
      errors: [{ source: "run", item: "cron", error: `abandoned: a cron run ends within its function's time limit, and this one was still running ${CRON_RUN_ABANDONED_AFTER_MS / 60_000} minutes after it started` }],
    })
    .where(
      and(
        eq(harvestRuns.status, "running"),
        eq(harvestRuns.trigger, "cron"),
        lt(harvestRuns.startedAt, new Date(now.getTime() - CRON_RUN_ABANDONED_AFTER_MS)),
        notLike(harvestRuns.holder, ofThisHost),
      ),
    )
    .returning({ id: harvestRuns.id });
  return closed + stale.length;
}

/** Far past a cron function's 300 s limit: a cron run of another host this old is no longer running anywhere. */
const CRON_RUN_ABANDONED_AFTER_MS = 60 * 60_000;
