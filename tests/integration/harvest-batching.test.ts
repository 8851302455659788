import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { runHarvest } from "@/lib/harvest/run-harvest";
import type { FakeUpstreams } from "@/scripts/fake-upstreams/server";
import type { GeneratedWorld } from "@/scripts/fake-upstreams/generate";
import { onOneDatabase, resetDb } from "../helpers/db";
import { startWorld, TEST_HTTP } from "../helpers/harvest-world";

// Generous timeouts: this file shares two cores with the other database's run, and a
// retried request would be a call the batching did not need.
const HTTP = { ...TEST_HTTP, timeoutMs: 30_000 };

const SERVERS = 20_000;

// the bounds count upstream calls, which do not depend on the database (tests/helpers/db.ts onOneDatabase)
describe.runIf(onOneDatabase)(`upstream calls for ${SERVERS.toLocaleString("en")} generated servers grow with the batches, not the items`, () => {
  let fake: FakeUpstreams;
  let world: GeneratedWorld;
  let db: Db;
  let now = Date.parse("2026-05-01T00:00:00Z");
  const clock = () => new Date(now);

  beforeAll(async () => {
    ({ fake, world } = await startWorld(SERVERS, 11));
    db = await resetDb();
  }, 300_000);
  afterAll(() => fake?.close());

  it("repo-host calls ≤ 1.1 × ceil(repos / 100) and OSV calls ≤ ceil(look-ups / 1000) + new advisory ids", async () => {
    const r = await runHarvest(db, { trigger: "test", http: HTTP, clock, sources: ["registry", "repo", "vuln"] });
    expect(r.status, JSON.stringify(r.errors.slice(0, 3))).toBe("succeeded");

    const repos = r.counts.repo.attempted;
    expect(repos).toBe(world.repos);
    const repoCalls = fake.github.graphqlCalls + fake.github.restCalls;
    // what we sent, retries included, is at least what the host received
    expect(r.calls.repo).toBeGreaterThanOrEqual(repoCalls);
    expect(r.calls.repo).toBeLessThanOrEqual(1.1 * Math.ceil(repos / 100));
    expect(fake.github.graphqlCalls).toBe(Math.ceil(repos / 100));
    expect(fake.github.maxAliases).toBeLessThanOrEqual(100);
    expect(fake.github.restCalls, "blocked repositories take the REST fallback").toBeGreaterThan(0);
    expect(repoCalls).toBeLessThanOrEqual(1.1 * Math.ceil(repos / 100));

    const lookups = r.counts.vuln.attempted;
    expect(lookups).toBeGreaterThan(10_000);
    const res = (await db.execute(
      `select count(distinct a->>'id')::int as n from vuln_observations v, jsonb_array_elements(v.advisories) a` as never,
    )) as unknown as { rows: { n: number }[] };
    const newIds = res.rows[0].n;
    expect(newIds).toBeGreaterThan(0);
    expect(fake.osv.batchCalls).toBe(Math.ceil(lookups / 1000));
    expect(fake.osv.detailCalls).toBe(newIds);
    expect(fake.osv.batchCalls + fake.osv.detailCalls).toBeLessThanOrEqual(Math.ceil(lookups / 1000) + newIds);
  }, 300_000);

  it("a day later every look-up is due again but no advisory detail is read twice", async () => {
    const [batch, detail] = [fake.osv.batchCalls, fake.osv.detailCalls];
    now += 25 * 3_600_000;
    const r = await runHarvest(db, { trigger: "test", http: HTTP, clock, sources: ["vuln"] });
    expect(r.counts.vuln.attempted).toBeGreaterThan(10_000);
    expect(fake.osv.batchCalls - batch).toBe(Math.ceil(r.counts.vuln.attempted / 1000));
    expect(fake.osv.detailCalls - detail).toBe(0);
  }, 300_000);
});
