// bench/audit: server time of POST /v1/audit on a 100-entry config (every entry a different listed server,
// so the audit loads and evaluates 100 servers), and the pure parse + resolve time per entry, each as a ratio
// against a baseline measured in the same run on the same body: JSON.parse of it.
// The catalog is the largest shared registry snapshot in a fresh Postgres database of the bench's own.
// Handlers are called in-process with `new Request(...)` (no HTTP server), one request at a time.
// Goal (issue 8): p50 under 50 ms on Postgres.
//   npx tsx bench/audit.ts        BENCH_DATABASE_URL=postgres://… to choose the server; BENCH_ROUNDS=200
import fs from "node:fs";
import { eq, sql } from "drizzle-orm";
import { freshBenchDatabaseOrSkip } from "./lib/bench-db";

const ROUNDS = Number(process.env.BENCH_ROUNDS || 200);
const WARMUP = 20;
const ENTRIES = 100;
const DB_NAME = "mcp_preflight_audit_bench";
const GOAL_P50_MS = 50;

const url = await freshBenchDatabaseOrSkip(DB_NAME, "bench/audit");
if (!url) process.exit(0);
process.env.DATABASE_URL = url;
process.env.LOG_LEVEL = "silent";

const { getDb, closeDb } = await import("@/lib/db/client");
const { POST: auditPost } = await import("@/app/v1/audit/route");
const { POST: resolvePost } = await import("@/app/v1/resolve/route");
const { readDumpFile } = await import("@/lib/catalog/read-dump");
const { ingestDump } = await import("@/lib/catalog/ingest-dump");
const { createAccount } = await import("@/lib/accounts/create-account");
const { createApiKey } = await import("@/lib/accounts/create-api-key");
const { creditWallets, serverPackages, serverRemotes, servers } = await import("@/lib/db/schema");
const { BURST_LIMIT_PER_KEY } = await import("@/lib/config");
const { buildCatalogIndex, catalogQueryFor, classifyEntries, parseConfig, resolveEntries } = await import("@/lib/config-audit");
const { lookupCatalogServers } = await import("@/lib/services/lookup-catalog-servers");
const { largestSnapshot } = await import("@/tests/helpers/shared-data");
const { listing } = await import("@/tests/helpers/catalog-fixture");

const db = await getDb();

// ── catalog ──────────────────────────────────────────────────────────────────
const snapshot = largestSnapshot();
if (snapshot) {
  await ingestDump(db, await readDumpFile(snapshot), "bench");
} else {
  // no shared data: a synthetic catalog of the same shapes
  await ingestDump(
    db,
    Array.from({ length: 400 }, (_, i) =>
      listing({
        name: `io.github.owner${i}/server-${i}`,
        repository: { url: `https://github.com/owner${i}/server-${i}`, source: "github" },
        packages: i % 3 === 2 ? [] : [{ registryType: i % 3 ? "pypi" : "npm", identifier: `server-${i}-mcp`, version: "1.0.0", transport: { type: "stdio" } }],
        remotes: i % 3 === 2 ? [{ type: "streamable-http", url: `https://mcp.owner${i}.dev/mcp` }] : [],
      }),
    ),
    "bench",
  );
}

// ── a 100-entry config, one listed server per entry, mixing npm, PyPI, OCI and remote entries ───────────
const rows = await db
  .select({ name: servers.name, ecosystem: serverPackages.ecosystem, identifier: serverPackages.identifier, remote: serverRemotes.url })
  .from(servers)
  .leftJoin(serverPackages, eq(serverPackages.versionId, servers.latestVersionId))
  .leftJoin(serverRemotes, eq(serverRemotes.versionId, servers.latestVersionId))
  .where(sql`${servers.delistedAt} is null`)
  .orderBy(servers.name);
const entries: Record<string, unknown> = {};
const used = new Set<string>();
const usedIds = new Set<string>();
for (const r of rows) {
  if (Object.keys(entries).length >= ENTRIES) break;
  if (used.has(r.name)) continue;
  let entry: Record<string, unknown> | null = null;
  if (r.ecosystem === "jspkg" && r.identifier) entry = { command: "npx", args: ["-y", r.identifier] };
  else if (r.ecosystem === "pypkg" && r.identifier) entry = { command: "uvx", args: [r.identifier] };
  else if (r.ecosystem === "oci" && r.identifier) entry = { command: "docker", args: ["run", "-i", "--rm", r.identifier] };
  else if (r.remote && !r.remote.includes("{")) entry = { type: "http", url: r.remote };
  const id = r.identifier ?? r.remote;
  if (!entry || !id || usedIds.has(id)) continue;
  used.add(r.name);
  usedIds.add(id);
  entries[`e${Object.keys(entries).length}`] = entry;
}
while (Object.keys(entries).length < ENTRIES) entries[`local${Object.keys(entries).length}`] = { command: "node", args: ["./server.js"] };
const body = JSON.stringify({ mcpServers: entries }, null, 2);

// keys enough that no key reaches its burst limit; wallets that never run dry
const perKey = BURST_LIMIT_PER_KEY - 5;
const keys: string[] = [];
for (let a = 0; keys.length < Math.ceil((ROUNDS * 2 + WARMUP * 2) / perKey) + 2; a++) {
  const acc = await createAccount({ email: `audit-bench${a}@example.test` }, { db });
  await db.update(creditWallets).set({ purchasedRemaining: 1_000_000 }).where(eq(creditWallets.accountId, acc.id));
  for (let i = 0; i < 10; i++) keys.push((await createApiKey(acc.id, { db })).key);
}

// ── measurements ────────────────────────────────────────────────────────────
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
function perOp(fn: () => void, minMs = 1500): number {
  for (let i = 0; i < 50; i++) fn();
  let n = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < minMs) {
    fn();
    n++;
  }
  return (performance.now() - t0) / n;
}

const jsonParseMs = perOp(() => JSON.parse(body));
const parsed = parseConfig(body);
const classified = classifyEntries(parsed.entries);
const index = buildCatalogIndex(await lookupCatalogServers(db, catalogQueryFor(classified)));
const pureMs = perOp(() => resolveEntries(classifyEntries(parseConfig(body).entries), index));
const resolvedCount = resolveEntries(classified, index).filter((r) => r.serverName).length;

let call = 0;
const key = () => keys[Math.floor(call++ / perKey)];
const post = (handler: (req: Request) => Promise<Response>, path: string) =>
  handler(new Request(`http://localhost${path}`, { method: "POST", body, headers: { "x-api-key": key(), "x-mcp-preflight-socket-ip": "198.51.100.1" } }));

async function serverTimes(label: string, handler: (req: Request) => Promise<Response>, path: string) {
  const samples: number[] = [];
  for (let i = 0; i < WARMUP + ROUNDS; i++) {
    const t0 = performance.now();
    const res = await post(handler, path);
    await res.text();
    const ms = performance.now() - t0;
    if (res.status !== 200) throw new Error(`${label}: status ${res.status}`);
    if (i >= WARMUP) samples.push(ms);
  }
  return { label, p50: pct(samples, 50), p95: pct(samples, 95), p99: pct(samples, 99) };
}

const audit = await serverTimes("POST /v1/audit (100 entries)", auditPost, "/v1/audit");
const resolve = await serverTimes("POST /v1/resolve (100 entries)", resolvePost, "/v1/resolve");
const verdicts = (await (await post(auditPost, "/v1/audit")).json()).counts;

console.log(`bench/audit: ${snapshot ? `catalog ${snapshot.split("/").pop()}` : "synthetic catalog"}, ${ENTRIES}-entry config (${body.length} bytes), ${resolvedCount} entries resolve to ${resolvedCount} distinct servers; verdicts ${JSON.stringify(verdicts)}`);
console.log(`node ${process.version}, Postgres ${url.replace(/\/\/[^@]*@/, "//")}, ${ROUNDS} rounds after ${WARMUP} warm-up`);
console.log(`baseline: JSON.parse of the body                ${jsonParseMs.toFixed(3)} ms  (${((jsonParseMs / ENTRIES) * 1000).toFixed(2)} µs per entry)`);
console.log(
  `parse + classify + resolve (pure, in memory)     ${pureMs.toFixed(3)} ms  (${((pureMs / ENTRIES) * 1000).toFixed(2)} µs per entry, ×${(pureMs / jsonParseMs).toFixed(1)} of baseline)`,
);
for (const r of [audit, resolve]) {
  console.log(
    `${r.label.padEnd(48)} p50 ${r.p50.toFixed(2)} ms  p95 ${r.p95.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms  (×${Math.round(r.p50 / jsonParseMs)} of baseline at p50)`,
  );
}
console.log(`goal: audit p50 under ${GOAL_P50_MS} ms on Postgres → ${audit.p50 < GOAL_P50_MS ? "met" : "NOT met"} (${audit.p50.toFixed(2)} ms)`);
fs.mkdirSync("bench/out", { recursive: true });
fs.writeFileSync(
  "bench/out/audit.json",
  JSON.stringify(
    {
      rounds: ROUNDS,
      entries: ENTRIES,
      resolved: resolvedCount,
      baseline_json_parse_ms: +jsonParseMs.toFixed(4),
      parse_resolve_ms: +pureMs.toFixed(4),
      parse_resolve_us_per_entry: +((pureMs / ENTRIES) * 1000).toFixed(2),
      audit: { p50_ms: +audit.p50.toFixed(2), p95_ms: +audit.p95.toFixed(2), p99_ms: +audit.p99.toFixed(2) },
      resolve: { p50_ms: +resolve.p50.toFixed(2), p95_ms: +resolve.p95.toFixed(2), p99_ms: +resolve.p99.toFixed(2) },
    },
    null,
    2,
  ),
);
await closeDb();
