// bench/mcp: catalog_preflight through /mcp (stateless streamable HTTP: one JSON-RPC tools/call per
// request) against POST /v1/preflight with the same key and names, same server, same run.
// Goal (issue 9): /mcp at least 0.6 of the REST throughput.
//
//   npx tsx bench/mcp.ts [seconds]      BENCH_CONNECTIONS=50 BENCH_PORT=3197 BENCH_SKIP_BUILD=1
import { freshBenchDatabase, largestSharedSnapshot } from "./lib/bench-db";
import { buildOnce, loadRun, startBenchServer } from "./lib/bench-server";
import { prepareBenchCatalog, UNLIMITED_BURSTS } from "./lib/bench-catalog";

const seconds = Number(process.argv[2] ?? 15);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const port = Number(process.env.BENCH_PORT ?? 3197);
const snapshot = largestSharedSnapshot("bench/mcp");
if (!snapshot) process.exit(0);

const url = await freshBenchDatabase("mcp_preflight_mcp_bench");
const { key, names } = await prepareBenchCatalog(url, snapshot);
buildOnce();
const server = await startBenchServer(url, port, UNLIMITED_BURSTS);
let n = 0;
const rest = {
  method: "POST" as const,
  path: () => "/v1/preflight",
  headers: () => ({ "content-type": "application/json", "x-api-key": key }),
  body: () => JSON.stringify({ server_name: names[n++ % names.length] }),
};
const mcp = {
  method: "POST" as const,
  path: () => "/mcp",
  headers: () => ({ "content-type": "application/json", accept: "application/json, text/event-stream", "x-api-key": key }),
  body: () =>
    JSON.stringify({ jsonrpc: "2.0", id: n, method: "tools/call", params: { name: "catalog_preflight", arguments: { server_name: names[n++ % names.length] } } }),
};
try {
  // one call answered in full, so a broken endpoint fails loudly instead of being measured
  const probe = await fetch(`${server.base}${mcp.path()}`, { method: "POST", headers: mcp.headers(), body: mcp.body() });
  const text = await probe.text();
  if (probe.status !== 200 || !text.includes('"decision"')) throw new Error(`/mcp did not answer a preflight: ${probe.status} ${text.slice(0, 300)}`);
  await loadRun("warm-up", server.base, connections, 5, rest);
  await loadRun("warm-up", server.base, connections, 5, mcp);
  const viaRest = await loadRun("rest preflight", server.base, connections, seconds, rest);
  const viaMcp = await loadRun("mcp preflight", server.base, connections, seconds, mcp);
  const ratio = viaMcp.rps / viaRest.rps;
  console.log(`mcp / rest: throughput ${ratio.toFixed(3)}× (goal ≥ 0.6: ${ratio >= 0.6 ? "met" : "not met"}), p99 ${viaMcp.p99.toFixed(1)} vs ${viaRest.p99.toFixed(1)} ms`);
} finally {
  await server.stop();
}
