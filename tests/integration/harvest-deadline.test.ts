import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { isNotNull, like } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { leases, packageObservations, repositoryObservations, vulnObservations } from "@/lib/db/schema";
import { HARVEST_CONCURRENCY } from "@/lib/config";
import { runHarvest, type HarvestOptions } from "@/lib/harvest/run-harvest";
import type { FakeUpstreams } from "@/scripts/fake-upstreams/server";
import { resetDb } from "../helpers/db";
import { startWorld } from "../helpers/harvest-world";

// A run's deadline (the cron route's 240 s of its 300) and its stop (Ctrl-C, the server stopping) hold for every
// source, not only between chunks and for liveness probes: the upstream helper sent retries, and slept out backoff
// and rate-limit waits (up to 30 s each, per item in flight), past both. docs/harvester.md, "Scheduling".
let fake: FakeUpstreams;
let db: Db;
const harvest = (opts: Partial<HarvestOptions>) => runHarvest(db, { trigger: "test", registry: false, ...opts });

/** Slow answers, so the first wave of calls is in flight when the deadline passes. */
const LATENCY_MS = 300;
/** Retries and waits that would take far longer than the run has left. */
const PATIENT_HTTP = { retries: 1, backoffMs: 20_000, timeoutMs: 5_000, maxRetryAfterMs: 30_000 };

/**
 * Once `wave` calls reached `upstream` (each in flight for LATENCY_MS), the clock jumps an hour: the run's deadline
 * has passed. callsAtDeadline: the calls `upstream` had received by then (-1: never reached).
 */
function passDeadlineAfter(upstream: string, wave: number): { callsAtDeadline: () => number; stop: () => void } {
  const realNow = Date.now.bind(Date);
  const before = fake.calls[upstream] ?? 0;
  let at: number | null = null;
  const poll = setInterval(() => {
    if ((fake.calls[upstream] ?? 0) - before < wave) return;
    at = fake.calls[upstream];
    vi.spyOn(Date, "now").mockImplementation(() => realNow() + 3_600_000);
    clearInterval(poll);
  }, 1);
  return {
    callsAtDeadline: () => at ?? -1,
    stop: () => {
      clearInterval(poll);
      vi.restoreAllMocks();
    },
  };
}

beforeAll(async () => {
  ({ fake } = await startWorld(120, 7));
  db = await resetDb();
  const first = await harvest({ sources: ["registry"], registry: "full" });
  expect(first.status).toBe("succeeded");
});
afterAll(() => fake?.close());

// repo: one GraphQL query per chunk (the fake's GITHUB_TOKEN); jspkg and pypkg: a wave of one call per package
const SOURCES = [
  { source: "repo", upstream: "github", wave: 1, table: repositoryObservations },
  { source: "jspkg", upstream: "npm", wave: HARVEST_CONCURRENCY.jspkg, table: packageObservations },
  { source: "pypkg", upstream: "pypi", wave: HARVEST_CONCURRENCY.pypkg, table: packageObservations },
] as const;

describe("a harvest run past its deadline", () => {
  for (const { source, upstream, wave, table } of SOURCES) {
    it.each([
      ["a 5xx it would retry after a backoff", { kind: "500" as const }],
      ["a rate limit it would sleep out (Retry-After 20 s)", { kind: "429" as const, resetAfterSec: 20 }],
    ])(`${source}: after %s, sends no retry and waits no longer; the source stops at its deadline, its items given back untouched`, async (_, fault) => {
      fake.faults.add({ source: upstream, count: Infinity, ...fault });
      fake.latencyMs = LATENCY_MS;
      const clock = passDeadlineAfter(upstream, wave);
      const started = performance.now();
      let run;
      try {
        run = await harvest({ sources: [source], http: PATIENT_HTTP, deadlineMs: 60_000 });
      } finally {
        clock.stop();
        fake.faults.clear();
        fake.latencyMs = 0;
      }
      expect(clock.callsAtDeadline()).toBeGreaterThan(0);
      expect(fake.calls[upstream]).toBe(clock.callsAtDeadline());
      // the answers in flight, and no wait after them
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(run).toMatchObject({ status: "partial", stopped: { [source]: "deadline" }, errors: [] });
      expect(run.counts[source].attempted).toBe(0);
      // a call the deadline cut short is no upstream failure: nothing recorded, nothing still leased
      expect(await db.select().from(table).where(isNotNull(table.lastError))).toEqual([]);
      expect(await db.select().from(leases).where(like(leases.key, `harvest:${source}:%`))).toEqual([]);
    }, 60_000);
  }
});

describe("a vuln harvest past its deadline", () => {
  beforeAll(async () => {
    const packages = await harvest({ sources: ["jspkg", "pypkg"] });
    expect(packages.errors).toEqual([]);
  });

  /** A vuln harvest whose deadline passes once OSV has been asked once, each answer slowed to let it. */
  async function vulnPastDeadline() {
    fake.latencyMs = LATENCY_MS;
    const clock = passDeadlineAfter("osv", 1);
    try {
      return { run: await harvest({ sources: ["vuln"], http: PATIENT_HTTP, deadlineMs: 60_000 }), callsAtDeadline: clock.callsAtDeadline() };
    } finally {
      clock.stop();
      fake.faults.clear();
      fake.latencyMs = 0;
    }
  }

  it("after a querybatch answered with a 5xx, sends no retry; the look-ups are given back untouched", async () => {
    fake.faults.add({ source: "osv", kind: "500", count: Infinity });
    const { run, callsAtDeadline } = await vulnPastDeadline();
    expect(fake.calls.osv).toBe(callsAtDeadline);
    expect(run).toMatchObject({ status: "partial", stopped: { vuln: "deadline" }, errors: [] });
    expect(run.counts.vuln.attempted).toBe(0);
    expect(await db.select().from(vulnObservations)).toEqual([]);
  }, 60_000);

  it("after its querybatch, reads no advisory's details; the look-ups it answered are stored", async () => {
    const { run, callsAtDeadline } = await vulnPastDeadline();
    // the querybatch, and no GET /v1/vulns/{id} after it
    expect(fake.calls.osv).toBe(callsAtDeadline);
    expect(run).toMatchObject({ status: "partial", stopped: { vuln: "deadline" }, errors: [] });
    expect(run.counts.vuln.observed).toBeGreaterThan(0);
    const stored = await db.select().from(vulnObservations);
    expect(stored.some((o) => (o.advisories as unknown[]).length > 0)).toBe(true);
    // the next run, with time to spare, finishes the rest
    const next = await harvest({ sources: ["vuln"] });
    expect(next).toMatchObject({ status: "succeeded", errors: [] });
  }, 60_000);
});

describe("a harvest run told to stop", () => {
  it.each([
    ["a rate limit's wait (Retry-After 20 s)", { kind: "429" as const, resetAfterSec: 20 }],
    ["a backoff before a retry", { kind: "500" as const }],
  ])("stops at once during %s, not when it is over", async (_, fault) => {
    await db.delete(packageObservations);
    fake.faults.add({ source: "npm", count: Infinity, ...fault });
    const client = new AbortController();
    const before = fake.calls.npm ?? 0;
    const served = `npm:${fault.kind}`;
    const servedBefore = fake.faults.served[served] ?? 0;
    // stopped once the first wave has its answers and waits
    const poll = setInterval(() => {
      if ((fake.faults.served[served] ?? 0) - servedBefore >= HARVEST_CONCURRENCY.jspkg) {
        clearInterval(poll);
        setTimeout(() => client.abort(), 50);
      }
    }, 1);
    const started = performance.now();
    let run;
    try {
      run = await harvest({ sources: ["jspkg"], http: PATIENT_HTTP, signal: client.signal });
    } finally {
      clearInterval(poll);
      fake.faults.clear();
    }
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(fake.calls.npm - before).toBe(HARVEST_CONCURRENCY.jspkg);
    expect(run).toMatchObject({ status: "partial", stopped: { jspkg: "aborted" }, errors: [] });
    expect(await db.select().from(packageObservations)).toEqual([]);
    expect(await db.select().from(leases).where(like(leases.key, "harvest:jspkg:%"))).toEqual([]);
  }, 60_000);
});
