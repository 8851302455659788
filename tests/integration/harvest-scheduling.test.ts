import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { count, gt, isNotNull, max } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { changes, packageObservations, repositoryObservations } from "@/lib/db/schema";
import { runHarvest } from "@/lib/harvest/run-harvest";
import type { FakeUpstreams } from "@/scripts/fake-upstreams/server";
import type { GeneratedWorld } from "@/scripts/fake-upstreams/generate";
import { resetDb } from "../helpers/db";
import { startWorld, TEST_HTTP } from "../helpers/harvest-world";

describe("harvest scheduling: leases, budgets, resumption, staleness order", () => {
  let fake: FakeUpstreams;
  let world: GeneratedWorld;
  let db: Db;
  let now = Date.parse("2026-07-01T00:00:00Z");
  const clock = () => new Date(now);

  beforeAll(async () => {
    ({ fake, world } = await startWorld(600, 21, 2));
    db = await resetDb();
    await runHarvest(db, { trigger: "test", http: TEST_HTTP, clock, sources: ["registry"] });
  });
  afterAll(() => fake?.close());

  it("two concurrent runs share the work and never harvest one item twice", async () => {
    const npmBefore = fake.npm.calls;
    const ghBefore = fake.github.graphqlCalls;
    // upstream calls are counted, so none may time out and be retried: on a loaded CI machine an answer of the
    // fake registry once took longer than TEST_HTTP's 2 s, and its retry read as an item harvested twice
    const http = { ...TEST_HTTP, timeoutMs: 60_000 };
    const [a, b] = await Promise.all([
      runHarvest(db, { trigger: "test", http, clock, sources: ["jspkg", "repo"] }),
      runHarvest(db, { trigger: "test", http, clock, sources: ["jspkg", "repo"] }),
    ]);
    const jspkg = world.servers.filter((s) => s.pkg?.ecosystem === "jspkg").length;
    expect(a.counts.jspkg.attempted + b.counts.jspkg.attempted).toBe(jspkg);
    expect(a.counts.jspkg.attempted, "both runs took a share").toBeGreaterThan(0);
    expect(b.counts.jspkg.attempted, "both runs took a share").toBeGreaterThan(0);
    expect(fake.npm.calls - npmBefore).toBe(jspkg);
    expect(a.counts.repo.attempted + b.counts.repo.attempted).toBe(world.repos);
    expect(fake.github.graphqlCalls - ghBefore).toBeLessThanOrEqual(Math.ceil(world.repos / 100) + 1);
  });

  it("a run that spends its budget stops, and the next one resumes with what is left", async () => {
    now += 25 * 3_600_000;
    const before = fake.pypi.calls;
    const pypkg = world.servers.filter((s) => s.pkg?.ecosystem === "pypkg").length;
    const first = await runHarvest(db, { trigger: "test", http: TEST_HTTP, clock, sources: ["pypkg"], budget: { pypkg: 50 } });
    expect(first.stopped.pypkg).toBe("budget");
    expect(first.status).toBe("partial");
    expect(first.counts.pypkg.attempted).toBeGreaterThanOrEqual(50);
    expect(first.counts.pypkg.attempted).toBeLessThan(pypkg);
    const second = await runHarvest(db, { trigger: "test", http: TEST_HTTP, clock, sources: ["pypkg"] });
    expect(second.counts.pypkg.attempted).toBe(pypkg - first.counts.pypkg.attempted);
    expect(fake.pypi.calls - before).toBe(pypkg);
  });

  it("a run stopped part-way (deadline or abort) keeps every finished chunk; the next resumes", async () => {
    now += 25 * 3_600_000;
    const controller = new AbortController();
    let chunks = 0;
    const first = await runHarvest(db, {
      trigger: "test",
      http: TEST_HTTP,
      clock,
      sources: ["jspkg"],
      signal: controller.signal,
      onProgress: (p) => {
        if (p.attempted > 0 && ++chunks === 2) controller.abort();
      },
    });
    expect(first.stopped.jspkg).toBe("aborted");
    const done = first.counts.jspkg.attempted;
    expect(done).toBe(200);
    const fresh = await db.select({ n: count() }).from(packageObservations).where(isNotNull(packageObservations.observedAt));
    expect(fresh[0].n).toBeGreaterThan(0);
    const second = await runHarvest(db, { trigger: "test", http: TEST_HTTP, clock, sources: ["jspkg"], deadlineMs: 60_000 });
    expect(second.counts.jspkg.attempted).toBe(world.servers.filter((s) => s.pkg?.ecosystem === "jspkg").length - done);
  });

  it("the stalest items go first", async () => {
    now += 25 * 3_600_000;
    const rows = await db.select({ id: repositoryObservations.repositoryId, at: repositoryObservations.attemptedAt }).from(repositoryObservations);
    // make a known handful the stalest
    const stalest = rows.slice(-5).map((r) => r.id);
    for (const id of stalest) {
      await db.execute(`update repository_observations set attempted_at = '2020-01-01T00:00:00Z', observed_at = '2020-01-01T00:00:00Z' where repository_id = ${id}` as never);
    }
    const seen: number[] = [];
    const r = await runHarvest(db, { trigger: "test", http: TEST_HTTP, clock, sources: ["repo"], budget: { repo: 1 } });
    expect(r.counts.repo.attempted).toBe(100);
    const after = await db.select({ id: repositoryObservations.repositoryId, at: repositoryObservations.attemptedAt }).from(repositoryObservations);
    for (const a of after) if (a.at!.getTime() === now) seen.push(a.id);
    for (const id of stalest) expect(seen).toContain(id);
  });

  it("two runs reading the registry at once each report only the change records they wrote", async () => {
    const [{ top }] = await db.select({ top: max(changes.id) }).from(changes);
    const at = new Date().toISOString();
    for (const s of world.servers.slice(0, 10)) {
      fake.registry.update(s.name, (e) => Object.assign(e._meta["io.modelcontextprotocol.registry/official"], { status: "deprecated", updatedAt: at, statusChangedAt: at }));
    }
    const [a, b] = await Promise.all([
      runHarvest(db, { trigger: "test", http: TEST_HTTP, clock, sources: ["registry"], registry: "full" }),
      runHarvest(db, { trigger: "test", http: TEST_HTTP, clock, sources: ["registry"], registry: "full" }),
    ]);
    const written = await db.select({ kind: changes.kind }).from(changes).where(gt(changes.id, top ?? 0));
    expect(written.filter((c) => c.kind === "registry_status")).toHaveLength(10);
    // the one that wrote the listing reports its records; the other, which had nothing left to write, none of them
    const reported = [a, b].flatMap((r) => Object.entries(r.changes)).reduce((n, [, k]) => n + k, 0);
    expect(reported).toBe(written.length);
  });
});
