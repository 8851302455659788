import os from "node:os";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { harvestRuns } from "@/lib/db/schema";
import { runHolder } from "@/lib/harvest/close-abandoned-runs";
import { computeCoverage } from "@/lib/services/get-coverage";
import { runMaintenance } from "@/lib/services/run-maintenance";
import { resetDb } from "../helpers/db";

describe("upkeep closes harvest runs whose process is gone", () => {
  it("a run left 'running' by a server stopped or killed mid-harvest is failed by the next upkeep, not only by the next harvest", async () => {
    // `npm run harvest` through the server, then a SIGTERM (or kill -9, a crash): the run's row stayed 'running',
    // and with HARVEST_INTERVAL_MS=0 (or an hour until the timer's first run) coverage said a harvest was running
    const db = await resetDb();
    const now = new Date();
    const dead = `${os.hostname()}:4194999:stopped`; // a pid past the kernel's pid_max: no process has it
    const live = runHolder();
    await db.insert(harvestRuns).values([
      { trigger: "cli", holder: dead, status: "running", startedAt: new Date(now.getTime() - 60_000) },
      { trigger: "cli", holder: live, status: "running", startedAt: new Date(now.getTime() - 30_000) },
    ]);

    const r = await runMaintenance(db, now);

    expect(r.harvest_runs_closed).toBe(1);
    const [closed] = await db.select().from(harvestRuns).where(eq(harvestRuns.holder, dead));
    expect(closed).toMatchObject({ status: "failed", finishedAt: now });
    expect(closed.errors).toEqual([expect.objectContaining({ error: "abandoned: process 4194999 ended before the run finished" })]);
    // this process's own run is still running: it is left alone
    const [running] = await db.select().from(harvestRuns).where(eq(harvestRuns.holder, live));
    expect(running.status).toBe("running");
    await db.delete(harvestRuns).where(eq(harvestRuns.holder, live));
    expect((await computeCoverage(db, now)).harvest.running).toBe(false);
  });
});
