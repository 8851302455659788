// bench/preflight: POST /v1/preflight through the production server on Postgres (key resolution, burst
// counter, facts from the catalog, the engine, the evaluation record, the daily charge), against
// GET /v1/health of the same server in the same run.
// Goal (issue 4): at least 0.5 of the trivial route's throughput and p99 under 25 ms at 100 connections.
// The engine alone: bench/preflight-engine.ts (goal over 20,000 evaluations a second on one core).
//
//   npx tsx bench/preflight.ts [seconds]      BENCH_CONNECTIONS=100 BENCH_ROUNDS=3 BENCH_KEYS=800 BENCH_PORT=3198 BENCH_SKIP_BUILD=1
//
// Requests are spread over BENCH_KEYS pro keys (one account each), as real traffic is: the burst limit
// holds a key to 60 requests a minute, so hundreds of requests a second come from hundreds of keys. One key
// at hundreds a second would measure a queue on that key's burst-counter row that production never sees
// (BENCH_KEYS=1 shows it). The limit itself is lifted so that no run is cut short by 429s; every request
// still counts its burst window.
//
// Health and preflight run alternately BENCH_ROUNDS times; the figures are medians (bench/lib/bench-server.ts
// compareLoads), the ratio the median of the rounds' ratios.
//
// Those runs saturate the server, where a closed loop's latency is connections ÷ throughput whatever a request
// costs. Then the same 100 connections offer a steady rate the server can serve (BENCH_PACED_RATE, default
// half the preflight throughput just measured; bench/lib/paced-load.ts), and the p99 of that is the latency a
// caller sees under load: health and preflight each, BENCH_ROUNDS times, medians.
import { freshBenchDatabase, largestSharedSnapshot } from "./lib/bench-db";
import { buildOnce, compareLoads, loadRun, startBenchServer } from "./lib/bench-server";
import { prepareBenchCatalog, UNLIMITED_BURSTS } from "./lib/bench-catalog";
import { halfOf, pacedComparison } from "./lib/paced-load";

const seconds = Number(process.argv[2] ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 100);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const keyCount = Number(process.env.BENCH_KEYS ?? 800);
const port = Number(process.env.BENCH_PORT ?? 3198);
const snapshot = largestSharedSnapshot("bench/preflight");
if (!snapshot) process.exit(0);

const url = await freshBenchDatabase("mcp_preflight_preflight_bench");
const { keys, names } = await prepareBenchCatalog(url, snapshot, 200, keyCount);
buildOnce();
const server = await startBenchServer(url, port, UNLIMITED_BURSTS);
let n = 0;
// names in turn, keys at random: every key asks about every name over time (paid first asks and free repeats)
const preflight = {
  method: "POST" as const,
  path: () => "/v1/preflight",
  headers: () => ({ "content-type": "application/json", "x-api-key": keys[Math.floor(Math.random() * keys.length)] }),
  body: () => JSON.stringify({ server_name: names[n++ % names.length] }),
};
// Each key asks once before the measured rounds: a server that has been running knows its callers' keys
// (lib/quota/known-keys.ts), and the first call with a key it has not seen costs one statement more.
async function askWithEveryKey(): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: 50 }, async () => {
      for (let i = next++; i < keys.length; i = next++) {
        const res = await fetch(`${server.base}/v1/preflight`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-api-key": keys[i] },
          body: JSON.stringify({ server_name: names[i % names.length] }),
        });
        if (res.status !== 200) throw new Error(`warm-up preflight answered ${res.status}`);
        await res.arrayBuffer();
      }
    }),
  );
}

const health = { label: "health", req: { method: "GET" as const, path: () => "/v1/health" } };
try {
  await askWithEveryKey();
  await loadRun("warm-up", server.base, connections, 3, { method: "GET", path: () => "/v1/health" });
  await loadRun("warm-up", server.base, connections, 5, preflight);
  const { candidate: pf, throughputRatio: ratio } = await compareLoads(
    server.base,
    connections,
    seconds,
    rounds,
    health,
    { label: "preflight", req: preflight },
    server.cpuSeconds,
  );
  console.log(
    `preflight / health: throughput ${ratio.toFixed(3)}× (goal ≥ 0.5: ${ratio >= 0.5 ? "met" : "not met"}), ` +
      `p99 ${pf.p99.toFixed(1)} ms (goal < 25 ms: ${pf.p99 < 25 ? "met" : "not met"}) at ${connections} connections; ` +
      `${pf.p99Steady.toFixed(1)} ms leaving out each connection's first answer (its wait to be accepted)`,
  );

  const rate = Number(process.env.BENCH_PACED_RATE ?? halfOf(pf.rps));
  const { candidate: paced } = await pacedComparison(server.base, connections, rate, seconds, rounds, health, { label: "preflight", req: preflight });
  console.log(`paced preflight p99 ${paced.p99.toFixed(1)} ms at ${rate} req/s (goal < 25 ms: ${paced.p99 < 25 ? "met" : "not met"} at this rate)`);
} finally {
  await server.stop();
}
