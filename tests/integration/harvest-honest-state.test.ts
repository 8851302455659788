import { afterAll, beforeAll, describe, expect, it } from "vitest";
import os from "node:os";
import { desc, eq, inArray, like, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { harvestRuns, leases, packageObservations, repositoryObservations, sourceCooldowns } from "@/lib/db/schema";
import { runHarvest } from "@/lib/harvest/run-harvest";
import { runHolder } from "@/lib/harvest/close-abandoned-runs";
import { computeCoverage } from "@/lib/services/get-coverage";
import type { FakeUpstreams } from "@/scripts/fake-upstreams/server";
import { resetDb } from "../helpers/db";
import { startWorld } from "../helpers/harvest-world";

const HOUR = 3_600_000;
const HTTP = { retries: 1, backoffMs: 5, timeoutMs: 1_000, maxRetryAfterMs: 1_000 };

describe("a harvest run when an upstream fails, and what coverage then says", () => {
  let fake: FakeUpstreams;
  let db: Db;
  let now = Math.floor(Date.now() / 1000) * 1000;
  const clock = () => new Date(now);
  const harvest = (opts: Partial<Parameters<typeof runHarvest>[1]> = {}) => runHarvest(db, { trigger: "test", http: HTTP, clock, ...opts });

  beforeAll(async () => {
    ({ fake } = await startWorld(250, 5));
    db = await resetDb();
    // every source but liveness, whose probes of local MCP servers time out on a loaded machine and which none
    // of these tests reads
    const first = await harvest({ sources: ["registry", "repo", "jspkg", "pypkg", "vuln"] });
    expect(first.status, JSON.stringify(first.errors.slice(0, 3))).toBe("succeeded");
  });
  afterAll(() => fake?.close());

  it("coverage counts as with_errors what got no answer, not a gone repository or a missing package (those are answers)", async () => {
    const gone = await db.select().from(repositoryObservations).where(eq(repositoryObservations.exists, false));
    const missing = await db.select().from(packageObservations).where(eq(packageObservations.exists, false));
    expect(gone.length + missing.length).toBeGreaterThan(0);
    const c = await computeCoverage(db, clock());
    expect(c.sources.repo.with_errors).toBe(0);
    expect(c.sources.jspkg.with_errors).toBe(0);
    expect(c.sources.pypkg.with_errors).toBe(0);
  });

  it("a GraphQL query failing after its retries stops the repository source (the breaker), not one query per chunk", async () => {
    now += 25 * HOUR;
    fake.faults.add({ source: "github", kind: "500", count: Infinity });
    try {
      const r = await harvest({ sources: ["repo"] });
      expect(r.counts.repo.due).toBeGreaterThan(100); // more than one GraphQL chunk
      expect(r.stopped.repo).toMatch(/^upstream failing: /);
      // the first chunk's query and its one retry, and no other chunk
      expect(r.calls.repo).toBe(2);
      expect(r.counts.repo.attempted).toBe(100);
      expect(r.counts.repo.failed).toBe(100);
      expect((await computeCoverage(db, clock())).sources.repo.with_errors).toBe(100);
    } finally {
      fake.faults.clear();
    }
  });

  it("a secondary limit GraphQL answers with HTTP 200 stops GitHub calls until its Retry-After, like the 403 form", async () => {
    now += 25 * HOUR;
    fake.faults.add({ source: "github", kind: "secondary-200", count: Infinity, resetAfterSec: 120 });
    try {
      const sentAt = Date.now();
      const r = await harvest({ sources: ["repo"] });
      expect(r.stopped.repo).toMatch(/^rate limited until/);
      expect(r.calls.repo).toBe(1);
      const [cd] = await db.select().from(sourceCooldowns).where(eq(sourceCooldowns.source, "repo"));
      expect(cd.until.getTime()).toBeGreaterThanOrEqual(sentAt + 119_000);
    } finally {
      fake.faults.clear();
      await db.delete(sourceCooldowns);
    }
  });

  it("an OSV querybatch failing after its retries stops the vuln source too", async () => {
    now += 25 * HOUR;
    fake.faults.add({ source: "osv", kind: "500", count: Infinity });
    try {
      const r = await harvest({ sources: ["vuln"] });
      expect(r.counts.vuln.failed).toBeGreaterThan(0);
      expect(r.stopped.vuln).toMatch(/^upstream failing: /);
    } finally {
      fake.faults.clear();
    }
  });

  it("closes a run whose process on this host is gone (its pid free, or another process's since), so coverage no longer says a harvest is running", async () => {
    // a pid no process has: past the kernel's pid_max
    const dead = `${os.hostname()}:4194999:abandoned`;
    const alive = `${os.hostname()}:${process.pid}:alive`;
    const elsewhere = "another-host:1:elsewhere";
    // this process's pid with another start time: a process that had the pid before this one (a container restart)
    const reused = `${os.hostname()}:${process.pid}:reused:t1`;
    // and with its own start time, as runHolder writes it
    const current = runHolder();
    const started = new Date(now - HOUR);
    // cron runs of other hosts (every Vercel invocation may be one): closed when far past the function's time limit
    const cronEnded = "lambda-1:9:cron-ended";
    const cronRecent = "lambda-2:9:cron-recent";
    const rows = await db
      .insert(harvestRuns)
      .values([
        ...[dead, alive, elsewhere, reused, current].map((holder) => ({ trigger: "cli", holder, status: "running", startedAt: started })),
        { trigger: "cron", holder: cronEnded, status: "running", startedAt: new Date(now - 61 * 60_000) },
        { trigger: "cron", holder: cronRecent, status: "running", startedAt: new Date(now - 10 * 60_000) },
      ])
      .returning({ id: harvestRuns.id, holder: harvestRuns.holder });
    expect((await computeCoverage(db, clock())).harvest.running).toBe(true);
    await harvest({ sources: [] });
    const status = async (holder: string) => (await db.select().from(harvestRuns).where(eq(harvestRuns.holder, holder)))[0];
    expect(await status(dead)).toMatchObject({ status: "failed", finishedAt: new Date(now) });
    expect((await status(alive)).status).toBe("running");
    expect((await status(elsewhere)).status).toBe("running");
    expect(await status(reused)).toMatchObject({ status: "failed", finishedAt: new Date(now) });
    expect((await status(current)).status).toBe("running");
    expect(await status(cronEnded)).toMatchObject({ status: "failed", finishedAt: new Date(now) });
    expect((await status(cronEnded)).errors).toEqual([expect.objectContaining({ error: expect.stringMatching(/^abandoned: a cron run/) })]);
    expect((await status(cronRecent)).status).toBe("running");
    await db.delete(harvestRuns).where(inArray(harvestRuns.id, rows.map((r) => r.id)));
  });

  it("a run whose write the database refuses fails with the database's reason and gives its items back at once", async () => {
    now += 25 * HOUR;
    await db.execute(
      sql.raw("create function refuse() returns trigger language plpgsql as $$ begin raise exception 'could not extend file: No space left on device'; end $$"),
    );
    await db.execute(sql.raw("create trigger refuse before insert or update on package_observations for each row execute function refuse()"));
    try {
      await expect(harvest({ sources: ["jspkg"] })).rejects.toThrow();
    } finally {
      await db.execute(sql.raw("drop trigger refuse on package_observations"));
      await db.execute(sql.raw("drop function refuse()"));
    }
    const [run] = await db.select().from(harvestRuns).orderBy(desc(harvestRuns.id)).limit(1);
    expect(run.status).toBe("failed");
    // filed under the source that failed, which coverage names, not under the registry step that went well
    const refused = /^could not extend file: No space left on device \(in: (insert into|update) "package_observations"/;
    expect(run.errors).toEqual([{ source: "jspkg", item: "run", error: expect.stringMatching(refused) }]);
    expect(run.stopped).toEqual({ jspkg: expect.stringMatching(new RegExp(`^failed: ${refused.source.slice(1)}`)) });
    expect((await computeCoverage(db, clock())).harvest.recent_runs[0]).toMatchObject({ id: run.id, status: "failed", stopped: { jspkg: expect.stringMatching(/^failed: could not extend file/) } });
    // not held for the lease's ten minutes: the next run takes them all
    expect(await db.select().from(leases).where(like(leases.key, "harvest:jspkg:%"))).toEqual([]);
    const again = await harvest({ sources: ["jspkg"] });
    expect(again.counts.jspkg.attempted).toBe(again.counts.jspkg.due);
    expect(again.counts.jspkg.due).toBeGreaterThan(0);
  });

  it("coverage keeps the last successful run and registry sync when the five newest failed", async () => {
    const before = await computeCoverage(db, clock());
    const lastSuccess = before.harvest.last_success_at;
    const listingObservedAt = before.sources.registry.observed_at;
    expect(listingObservedAt).not.toBeNull();
    fake.faults.add({ source: "registry", kind: "500", count: Infinity });
    try {
      for (let i = 0; i < 6; i++) {
        now += HOUR;
        const r = await harvest({ sources: ["registry"], registry: "full" });
        expect(r.status).toBe("partial");
      }
    } finally {
      fake.faults.clear();
    }
    const after = await computeCoverage(db, clock());
    expect(after.harvest.recent_runs.map((r) => r.status)).toEqual(["partial", "partial", "partial", "partial", "partial"]);
    expect(after.discovery.recent_syncs.map((s) => s.status)).toEqual(["failed", "failed", "failed", "failed", "failed"]);
    // the catalog still holds what the last good sync read, and says so
    expect(after.sources.registry.observed_at).toBe(listingObservedAt);
    expect(after.discovery.listing_observed_at).toBe(listingObservedAt);
    expect(after.discovery.last_success_at).toBe(before.discovery.last_success_at);
    expect(after.sources.registry.last_sync_at).toBe(before.sources.registry.last_sync_at);
    expect(lastSuccess).not.toBeNull();
    expect(after.harvest.last_success_at).toBe(lastSuccess);
  });
});
