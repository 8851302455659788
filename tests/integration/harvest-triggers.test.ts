import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { count, isNotNull } from "drizzle-orm";
import { GET as cronHarvest } from "@/app/api/cron/harvest/route";
import { GET as cronIngest, POST as cronIngestDump } from "@/app/api/cron/ingest/route";
import type { Db } from "@/lib/db/client";
import { harvestRuns, leases, packageObservations, registrySyncs, repositoryObservations, sourceCooldowns } from "@/lib/db/schema";
import { startHarvestTimer } from "@/lib/harvest/harvest-timer";
import { progressPrinter } from "@/lib/harvest/progress-printer";
import type { FakeUpstreams } from "@/scripts/fake-upstreams/server";
import { resetDb } from "../helpers/db";
import { startWorld } from "../helpers/harvest-world";

const get = (path: string, secret?: string) =>
  cronHarvest(new Request(`http://localhost${path}`, { headers: secret ? { authorization: `Bearer ${secret}` } : {} }));

describe("harvest triggers", () => {
  let fake: FakeUpstreams;
  let db: Db;

  beforeAll(async () => {
    ({ fake } = await startWorld(60, 5));
    db = await resetDb();
    process.env.CRON_SECRET = "harvest-cron-secret";
  });
  afterAll(async () => {
    delete process.env.CRON_SECRET;
    await fake?.close();
  });

  it("the cron route needs the cron secret", async () => {
    const res = await get("/api/cron/harvest", "wrong");
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ ok: false, error: "unauthorized" });
    expect((await db.select({ n: count() }).from(harvestRuns))[0].n).toBe(0);
  });

  it("rejects unknown sources with 400", async () => {
    const res = await get("/api/cron/harvest?sources=repo,ftp", "harvest-cron-secret");
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ ok: false, error: "invalid_request" });
  });

  // each was taken without a word: "abc" and "-5" as the default 240 s, "1.5" as a 1.5 ms deadline, "1e3" as 1 s
  it.each(["abc", "-5", "1.5", "1e3", ""])("refuses a deadline_ms that is no whole number of milliseconds (%j) with 400, and runs nothing", async (deadline) => {
    const res = await get(`/api/cron/harvest?sources=repo&deadline_ms=${deadline}`, "harvest-cron-secret");
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      ok: false,
      error: "invalid_request",
      message: `deadline_ms must be a whole number of milliseconds, 0 for none (got ${JSON.stringify(deadline)})`,
    });
    expect((await db.select({ n: count() }).from(harvestRuns))[0].n).toBe(0);
  });

  it("runs one harvest and answers its counts; ?stream=1 streams progress lines, then the result", async () => {
    const res = await get("/api/cron/harvest?sources=registry,repo", "harvest-cron-secret");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ ok: true, status: "succeeded", counts: { repo: { failed: 0 } } });
    expect(body.counts.repo.observed).toBeGreaterThan(0);
    expect(body.changes.server_new).toBe(60);

    const streamed = await get("/api/cron/harvest?sources=jspkg&stream=1&trigger=cli", "harvest-cron-secret");
    expect(streamed.headers.get("content-type")).toBe("application/x-ndjson");
    const lines = (await streamed.text()).trim().split("\n").map((l) => JSON.parse(l));
    expect(lines.slice(0, -1).every((l) => l.progress?.source === "jspkg")).toBe(true);
    expect(lines.at(-1).result).toMatchObject({ ok: true, status: "succeeded" });
    expect(lines.at(-1).result.counts.jspkg.observed).toBeGreaterThan(0);
    const runs = await db.select().from(harvestRuns);
    expect(runs.map((r) => r.trigger)).toEqual(["cron", "cli"]);
  });

  it("a streaming client that goes away mid-run (Ctrl-C on npm run harvest) stops the run: partial, and the calls it cut short are no upstream failure", async () => {
    const client = new AbortController();
    const res = await cronHarvest(
      new Request("http://localhost/api/cron/harvest?sources=pypkg&stream=1&trigger=cli&registry=none&deadline_ms=0", {
        headers: { authorization: "Bearer harvest-cron-secret" },
        signal: client.signal,
      }),
    );
    const reader = res.body!.getReader();
    const pypiBefore = fake.calls.pypi ?? 0;
    fake.latencyMs = 300;
    try {
      // gone while the first look-ups are in flight
      await expect.poll(() => (fake.calls.pypi ?? 0) - pypiBefore, { interval: 10 }).toBeGreaterThan(3);
      client.abort();
      await reader.cancel();
      await expect.poll(async () => (await db.select().from(harvestRuns)).at(-1)!.status, { timeout: 20_000 }).not.toBe("running");
    } finally {
      fake.latencyMs = 0;
    }
    const run = (await db.select().from(harvestRuns)).at(-1)!;
    expect(run).toMatchObject({ trigger: "cli", status: "partial", stopped: { pypkg: "aborted" }, errors: [] });
    expect(await db.select().from(packageObservations).where(isNotNull(packageObservations.lastError))).toEqual([]);
  });

  it("the server's timer runs harvests on its own and stops", async () => {
    // forget the observations and the finished runs' leases, so the repositories are due and free again
    await db.delete(repositoryObservations);
    await db.delete(leases);
    const [{ n: before }] = await db.select({ n: count() }).from(harvestRuns);
    const stop = startHarvestTimer(db, 60_000, 10);
    try {
      const end = Date.now() + 30_000;
      while ((await db.select({ n: count() }).from(repositoryObservations))[0].n === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
      expect((await db.select({ n: count() }).from(repositoryObservations))[0].n).toBeGreaterThan(0);
    } finally {
      stop();
    }
    const [{ n: after }] = await db.select({ n: count() }).from(harvestRuns);
    expect(after).toBe(before + 1);
  });

  it("the cron ingest keeps the registry's cooldown: a rate limit starts one, and nothing is sent until it ends", async () => {
    const ingest = () => cronIngest(new Request("http://localhost/api/cron/ingest", { headers: { authorization: "Bearer harvest-cron-secret" } }));
    fake.faults.add({ source: "registry", kind: "429", resetAfterSec: 3600 });
    try {
      const limited = await ingest();
      expect(limited.status).toBe(429);
      const body = await limited.json();
      expect(body).toMatchObject({ ok: false, error: "rate_limited" });
      expect(body.retry_after).toBeGreaterThan(3000);
      const sent = fake.registry.requests.length;
      const waiting = await ingest();
      expect(waiting.status).toBe(200);
      expect(await waiting.json()).toMatchObject({ ok: true, skipped: expect.stringMatching(/asked us to wait until/) });
      expect(fake.registry.requests.length).toBe(sent);
    } finally {
      fake.faults.clear();
      await db.delete(sourceCooldowns);
    }
  });

  // `npm run ingest` on a machine that cannot reach the registry printed "HTTP 500 … internal error; quote request
  // id …": the operator learned nothing of why, where a run on its own database said which request failed
  it("a registry that cannot be read is answered with what failed and how to import a dump instead", async () => {
    const [{ n: before }] = await db.select({ n: count() }).from(registrySyncs);
    const saved = process.env.REGISTRY_URL;
    process.env.REGISTRY_URL = "http://169.254.169.254/registry"; // refused before any request: a metadata address
    try {
      const res = await cronIngest(new Request("http://localhost/api/cron/ingest", { headers: { authorization: "Bearer harvest-cron-secret" } }));
      expect(res.status).toBe(500);
      const body = await res.json();
      expect(body).toMatchObject({ ok: false, error: "internal_error" });
      expect(body.message).toMatch(/^the registry could not be read: http:\/\/169\.254\.169\.254\/registry\/v0\.1\/servers\?.*; set REGISTRY_URL to a reachable registry, or import a dump: npm run ingest -- --file <registry-dump\.json\|\.json\.gz>$/);
    } finally {
      process.env.REGISTRY_URL = saved;
    }
    expect(await db.select().from(sourceCooldowns)).toEqual([]);
    expect((await db.select({ n: count() }).from(registrySyncs))[0].n).toBeGreaterThanOrEqual(before);
  });

  it.each(["fulll", "", "FULL"])("a cron ingest with a mode that is neither full nor incremental (%j) is a 400, and no sync runs", async (mode) => {
    const [{ n: before }] = await db.select({ n: count() }).from(registrySyncs);
    const sent = fake.registry.requests.length;
    const res = await cronIngest(new Request(`http://localhost/api/cron/ingest?mode=${mode}`, { headers: { authorization: "Bearer harvest-cron-secret" } }));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ ok: false, error: "invalid_request", message: expect.stringMatching(/^mode must be full or incremental/) });
    expect(fake.registry.requests.length).toBe(sent);
    expect((await db.select({ n: count() }).from(registrySyncs))[0].n).toBe(before);
  });

  // "1" was read by `new Date` as 2001-01-01 (every server new to the dump first seen then), "2025-02-30" as the
  // 2nd of March, Go's zero time as year 1
  it.each(["yesterday", "1", "2025-02-30", "0001-01-01T00:00:00Z"])("a dump posted with an observed_at that is no time (%s) is a 400 naming it, and nothing is recorded", async (observedAt) => {
    const [{ n: before }] = await db.select({ n: count() }).from(registrySyncs);
    const res = await cronIngestDump(
      new Request(`http://localhost/api/cron/ingest?origin=upload&observed_at=${observedAt}`, {
        method: "POST",
        headers: { authorization: "Bearer harvest-cron-secret" },
        body: JSON.stringify([{ name: "io.github.acme/dated", version: "1.0.0" }]),
      }),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ ok: false, error: "invalid_request", message: `observed_at is not a time (RFC 3339, such as 2025-11-28T00:00:00Z): ${observedAt}` });
    expect((await db.select({ n: count() }).from(registrySyncs))[0].n).toBe(before);
  });

  // One dump dated ahead by a typo (2052 for 2025) was newer than every listing after it: none delisted a server
  // again, and each server new to them arrived delisted as of 2052.
  it("a dump posted with an observed_at in the future is a 400 naming it, and nothing is recorded", async () => {
    const [{ n: before }] = await db.select({ n: count() }).from(registrySyncs);
    const res = await cronIngestDump(
      new Request("http://localhost/api/cron/ingest?origin=upload&observed_at=2052-11-05T00:00:00Z", {
        method: "POST",
        headers: { authorization: "Bearer harvest-cron-secret" },
        body: JSON.stringify([{ name: "io.github.acme/dated", version: "1.0.0" }]),
      }),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ ok: false, error: "invalid_request", message: expect.stringMatching(/^observed_at is in the future .*: 2052-11-05T00:00:00Z$/) });
    expect((await db.select({ n: count() }).from(registrySyncs))[0].n).toBe(before);
  });

  it("prints plain progress lines when not on a terminal", () => {
    const out: string[] = [];
    const stream = { isTTY: false, write: (s: string) => out.push(s) } as unknown as NodeJS.WriteStream;
    const p = progressPrinter(stream);
    p.update({ source: "repo", due: 10, attempted: 0, observed: 0, failed: 0, calls: 0 });
    p.update({ source: "repo", due: 10, attempted: 5, observed: 5, failed: 0, calls: 1 }); // throttled
    p.update({ source: "repo", due: 10, attempted: 10, observed: 9, failed: 1, calls: 2 });
    p.done();
    expect(out).toEqual(["repo: 0/10 (0 observed, 0 failed), 0 calls\n", "repo: 10/10 (9 observed, 1 failed), 2 calls\n"]);
    const tty: string[] = [];
    const t = progressPrinter({ isTTY: true, write: (s: string) => tty.push(s) } as unknown as NodeJS.WriteStream);
    t.update({ source: "vuln", due: 4, attempted: 2, observed: 2, failed: 0, calls: 1 });
    expect(tty[0]).toMatch(/^\r\x1b\[2Kvuln\s+█{12}░{12}\s+50%/);
  });
});
