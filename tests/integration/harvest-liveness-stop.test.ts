import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { like } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { leases, remoteObservations } from "@/lib/db/schema";
import { HARVEST_CONCURRENCY } from "@/lib/config";
import { runHarvest } from "@/lib/harvest/run-harvest";
import { resetDb } from "../helpers/db";
import { listing, loadFixtureCatalog } from "../helpers/catalog-fixture";
import { startMcpTestServer } from "../helpers/mcp-test-server";

// The liveness source stops as the others do (docs/harvester.md): a run told to stop sends no further call, and
// past its deadline it starts no further probe, so a chunk of endpoints that never answer (8 s a wave, twice for
// a URL listed with both transports) cannot carry the cron's run beyond its time limit.
let db: Db;
let mcp: Awaited<ReturnType<typeof startMcpTestServer>>;
const WAVE = HARVEST_CONCURRENCY.liveness;
const REMOTES = WAVE * 2 + WAVE / 2;
const name = (i: number) => `io.github.test/remote-${i}`;

beforeAll(async () => {
  mcp = await startMcpTestServer();
  process.env.OUTBOUND_ALLOW_HOSTS = "127.0.0.1";
});
afterAll(async () => {
  delete process.env.OUTBOUND_ALLOW_HOSTS;
  await mcp?.close();
});
beforeEach(async () => {
  db = await resetDb();
  await loadFixtureCatalog(
    db,
    Array.from({ length: REMOTES }, (_, i) => listing({ name: name(i), remotes: [{ type: "streamable-http", url: `${mcp.url}/${i}` }] })),
  );
  mcp.state.onRequest = undefined;
});

const ours = <T extends { url: string }>(rows: T[]) => rows.filter((r) => r.url.startsWith(`${mcp.url}/`));

describe("a liveness harvest told to stop", () => {
  it("sends no further request once aborted, and gives the chunk's unprobed items back untouched", async () => {
    const client = new AbortController();
    let arrived = 0;
    let afterAbort = 0;
    mcp.state.onRequest = async () => {
      if (client.signal.aborted) afterAbort++;
      // the whole first wave's initialize requests are in: stop the run while they wait for their answers
      else if (++arrived === WAVE) client.abort();
      await new Promise((r) => setTimeout(r, 200));
    };
    const run = await runHarvest(db, { trigger: "test", sources: ["liveness"], registry: false, signal: client.signal });
    expect(run).toMatchObject({ status: "partial", stopped: { liveness: "aborted" }, errors: [] });
    expect(afterAbort).toBe(0);
    // no probe was answered, and a probe cut short is no upstream failure: nothing written, nothing still leased
    expect(ours(await db.select().from(remoteObservations))).toEqual([]);
    expect(await db.select().from(leases).where(like(leases.key, "harvest:liveness:%"))).toEqual([]);
  });

  it("starts no further probe past its deadline; the next run probes what was left", async () => {
    const realNow = Date.now.bind(Date);
    let arrived = 0;
    mcp.state.onRequest = async () => {
      // the run's deadline passes while its first probes are in flight
      if (++arrived === 1) vi.spyOn(Date, "now").mockImplementation(() => realNow() + 120_000);
      await new Promise((r) => setTimeout(r, 100));
    };
    try {
      const run = await runHarvest(db, { trigger: "test", sources: ["liveness"], registry: false, deadlineMs: 60_000 });
      expect(run.stopped.liveness).toBe("deadline");
      expect(run.counts.liveness.attempted).toBeGreaterThan(0);
      expect(run.counts.liveness.attempted).toBeLessThanOrEqual(WAVE);
    } finally {
      vi.restoreAllMocks();
      mcp.state.onRequest = undefined;
    }
    const probed = ours(await db.select().from(remoteObservations));
    expect(probed.length).toBeLessThanOrEqual(WAVE);
    expect(probed.every((o) => o.live === true)).toBe(true);
    expect(await db.select().from(leases).where(like(leases.key, "harvest:liveness:%"))).toEqual([]);
    const next = await runHarvest(db, { trigger: "test", sources: ["liveness"], registry: false });
    expect(next.counts.liveness.observed).toBeGreaterThanOrEqual(REMOTES - probed.length);
    expect(ours(await db.select().from(remoteObservations))).toHaveLength(REMOTES);
  });
});
