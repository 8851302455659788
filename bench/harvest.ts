// bench/harvest: a full and an incremental harvest of 20,000 generated servers
// against the fake upstreams with 50 ms added to every answer, on embedded
// PGlite. Prints upstream calls per source, wall time, and the ratio of calls
// to the batching minimum (ceil(items / batch size); 1 call per item where the
// upstream has no batch API).
// Goals (issue 5): full run < 10 min on 2 cores; incremental (1% changed) < 30 s.
//   npx tsx bench/harvest.ts [servers=20000] [latency_ms=50]
import os from "node:os";
import { openDatabase } from "@/lib/db/client";
import { migrateDatabase } from "@/lib/db/migrate";
import { runHarvest, type HarvestResult } from "@/lib/harvest/run-harvest";
import { startFakeUpstreams } from "@/scripts/fake-upstreams/server";
import { generateWorld, mutateWorld } from "@/scripts/fake-upstreams/generate";

const SERVERS = Number(process.argv[2] ?? 20_000);
const LATENCY = Number(process.argv[3] ?? 50);
process.env.OUTBOUND_ALLOW_HOSTS = "127.0.0.1";
process.env.LOG_LEVEL = "silent";

const fake = await startFakeUpstreams({ latencyMs: LATENCY });
fake.applyEnv();
const world = generateWorld(fake, SERVERS, 1);
console.log(
  `bench/harvest: ${SERVERS} servers (${world.repos} repositories, ${world.packages} packages, ${world.remotes} remotes), ` +
    `${LATENCY} ms upstream latency, ${os.cpus().length} cores, PGlite in memory`,
);

const db = await openDatabase("pglite:memory");
await migrateDatabase(db, "pglite:memory");

function snapshot() {
  return {
    registry: fake.calls.registry ?? 0,
    repo: fake.github.graphqlCalls + fake.github.restCalls,
    graphql: fake.github.graphqlCalls,
    jspkg: fake.npm.calls,
    pypkg: fake.pypi.calls,
    osvBatch: fake.osv.batchCalls,
    osvDetail: fake.osv.detailCalls,
    liveness: fake.calls.mcp ?? 0,
  };
}

function report(label: string, r: HarvestResult, before: ReturnType<typeof snapshot>, wallMs: number, goalMs: number) {
  const after = snapshot();
  const d = Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v - before[k as keyof typeof before]])) as typeof after;
  const c = r.counts;
  const min = {
    registry: Math.max(1, Math.ceil(c.registry.observed / 100)),
    repo: Math.ceil(c.repo.attempted / 100),
    jspkg: c.jspkg.attempted,
    pypkg: c.pypkg.attempted,
    vuln: Math.ceil(c.vuln.attempted / 1000) + d.osvDetail, // detail look-ups are for new ids only
    liveness: c.liveness.attempted * 2, // initialize + tools/list
  };
  const ratio = (calls: number, m: number) => (m ? (calls / m).toFixed(2) : "-");
  console.log(`\n${label}: ${(wallMs / 1000).toFixed(1)} s wall (goal < ${goalMs / 1000} s: ${wallMs < goalMs ? "met" : "MISSED"}), status ${r.status}`);
  console.log("  source     items    calls   minimum  ratio");
  const row = (name: string, items: number, calls: number, m: number) =>
    console.log(`  ${name.padEnd(9)} ${String(items).padStart(6)} ${String(calls).padStart(8)} ${String(m).padStart(9)}  ${ratio(calls, m)}`);
  row("registry", c.registry.observed, d.registry, min.registry);
  row("repo", c.repo.attempted, d.repo, min.repo);
  row("jspkg", c.jspkg.attempted, d.jspkg, min.jspkg);
  row("pypkg", c.pypkg.attempted, d.pypkg, min.pypkg);
  row("vuln", c.vuln.attempted, d.osvBatch + d.osvDetail, min.vuln);
  row("liveness", c.liveness.attempted, d.liveness, min.liveness);
  console.log(`  GitHub: ${d.graphql} GraphQL + ${d.repo - d.graphql} REST; OSV: ${d.osvBatch} querybatch + ${d.osvDetail} vulns/{id}`);
  console.log(`  changes: ${JSON.stringify(r.changes)}${Object.keys(r.stopped).length ? `; stopped: ${JSON.stringify(r.stopped)}` : ""}`);
}

let before = snapshot();
let t = performance.now();
const full = await runHarvest(db.db, { trigger: "bench", budget: { jspkg: 1e9, pypkg: 1e9, repo: 1e9, vuln: 1e9, liveness: 1e9 } });
report("full run", full, before, performance.now() - t, 600_000);

// A day's worth of change: 1% of servers publish a new version pinning a new release.
const changed = mutateWorld(fake, world, 0.01, 2);
before = snapshot();
t = performance.now();
const incremental = await runHarvest(db.db, { trigger: "bench" });
report(`incremental run (${changed.length} servers changed)`, incremental, before, performance.now() - t, 30_000);

await db.close();
await fake.close();
