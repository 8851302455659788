// bench/quota: latency the quota path adds to a request (key lookup, burst
// counter, charge transaction, headers), on the Postgres server, as a ratio
// against the same handler with metering disabled, measured in the same run.
// Handlers are called in-process with `new Request(...)` (no HTTP server), one
// request at a time, baseline and metered calls interleaved so both see the
// same database state and machine load.
// Goal (issue 3): under 1 ms added at p50.
//   npx tsx bench/quota.ts          BENCH_DATABASE_URL=postgres://… to choose the server
import fs from "node:fs";
import { sql } from "drizzle-orm";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { freshBenchDatabaseOrSkip } from "./lib/bench-db";

const ROUNDS = Number(process.env.BENCH_ROUNDS || 2000);
const WARMUP = 200;
const DB_NAME = "mcp_preflight_quota_bench";

const url = await freshBenchDatabaseOrSkip(DB_NAME, "bench/quota");
if (!url) process.exit(0);
process.env.DATABASE_URL = url;
process.env.LOG_LEVEL = "silent";

const { getDb, closeDb } = await import("@/lib/db/client");
const { withCaller } = await import("@/lib/api/with-caller");
const { createAccount } = await import("@/lib/accounts/create-account");
const { createApiKey } = await import("@/lib/accounts/create-api-key");
const { creditWallets } = await import("@/lib/db/schema");
const { BURST_LIMIT_PER_KEY, BURST_LIMIT_PER_ANONYMOUS_IP } = await import("@/lib/config");

const db = await getDb();

// The handler every variant runs: one small query, like a lookup by name.
const work = async (name: string) => {
  await db.execute(sql`select ${name}::text as name`);
  return { ok: true, name };
};
// both read the query as every route does (parsed, closed), so the ratio is the metering's alone
const query = z.object({ name: z.string() });
const baseline = withCaller(async ({ query: { name } }) => work(name), { query });
const metered = withCaller(
  async ({ query: { name }, charge }) => {
    const result = await work(name);
    await charge(`lookup:${name}`, 1);
    return result;
  },
  { metered: true, query },
);

// Enough keys and IPs that no caller reaches its burst limit during the run.
const keysNeeded = Math.ceil((ROUNDS + WARMUP) / (BURST_LIMIT_PER_KEY - 5)) * 2 + 2;
const keys: string[] = [];
for (let a = 0; keys.length < keysNeeded; a++) {
  const acc = await createAccount({ email: `bench${a}@example.test` }, { db });
  await db.update(creditWallets).set({ purchasedRemaining: 10_000_000 }).where(eq(creditWallets.accountId, acc.id));
  for (let i = 0; i < 10 && keys.length < keysNeeded; i++) keys.push((await createApiKey(acc.id, { db })).key);
}

type Variant = { label: string; handler: (req: Request) => Promise<Response>; headers: (i: number) => Record<string, string>; name: (i: number) => string };
const perKey = BURST_LIMIT_PER_KEY - 5;
const perIp = BURST_LIMIT_PER_ANONYMOUS_IP - 5;
const variants: Variant[] = [
  { label: "baseline (metering disabled, no key)", handler: baseline, headers: () => ({}), name: (i) => `io.github.b/s${i}` },
  {
    label: "keyed, new subject (paid)",
    handler: metered,
    headers: (i) => ({ "x-api-key": keys[Math.floor(i / perKey) % (keys.length / 2)] }),
    name: (i) => `io.github.p/s${i}`,
  },
  {
    label: "keyed, repeat subject (free)",
    handler: metered,
    headers: (i) => ({ "x-api-key": keys[keys.length / 2 + (Math.floor(i / perKey) % (keys.length / 2))] }),
    name: () => "io.github.r/same",
  },
  {
    label: "anonymous, repeat subject",
    handler: metered,
    headers: (i) => ({ "x-mcp-preflight-socket-ip": `198.18.${Math.floor(i / perIp / 250)}.${Math.floor(i / perIp) % 250}` }),
    name: () => "io.github.r/same",
  },
  {
    label: "anonymous, new subject",
    handler: metered,
    headers: (i) => ({ "x-mcp-preflight-socket-ip": `198.19.${Math.floor(i / 9 / 250)}.${Math.floor(i / 9) % 250}` }),
    name: (i) => `io.github.n/s${i}`,
  },
];

const samples: number[][] = variants.map(() => []);
for (let i = 0; i < WARMUP + ROUNDS; i++) {
  for (let v = 0; v < variants.length; v++) {
    const variant = variants[v];
    const req = new Request(`http://localhost/v1/lookup?name=${encodeURIComponent(variant.name(i))}`, {
      headers: { "x-mcp-preflight-socket-ip": "203.0.113.1", ...variant.headers(i) },
    });
    const t = performance.now();
    const res = await variant.handler(req);
    await res.arrayBuffer();
    const ms = performance.now() - t;
    if (res.status !== 200) throw new Error(`${variant.label}: status ${res.status} at round ${i}`);
    if (i >= WARMUP) samples[v].push(ms);
  }
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const base50 = pct(samples[0], 50);
const base99 = pct(samples[0], 99);
console.log(`bench/quota on Postgres (${DB_NAME}), ${ROUNDS} requests per variant, in-process handler calls, sequential`);
const report: Record<string, unknown>[] = [];
for (let v = 0; v < variants.length; v++) {
  const p50 = pct(samples[v], 50);
  const p99 = pct(samples[v], 99);
  const row = {
    variant: variants[v].label,
    p50_ms: +p50.toFixed(3),
    p99_ms: +p99.toFixed(3),
    added_p50_ms: +(p50 - base50).toFixed(3),
    added_p99_ms: +(p99 - base99).toFixed(3),
    ratio_p50: +(p50 / base50).toFixed(2),
  };
  report.push(row);
  console.log(
    `${row.variant.padEnd(38)} p50 ${p50.toFixed(3)} ms  p99 ${p99.toFixed(3)} ms` +
      (v === 0 ? "" : `  added p50 ${row.added_p50_ms.toFixed(3)} ms, p99 ${row.added_p99_ms.toFixed(3)} ms  (×${row.ratio_p50} of baseline at p50)`),
  );
}
const worst = Math.max(...report.slice(1).map((r) => r.added_p50_ms as number));
console.log(`goal: under 1 ms added at p50 → ${worst < 1 ? "met" : "NOT met"} (worst variant adds ${worst.toFixed(3)} ms)`);
fs.mkdirSync("bench/out", { recursive: true });
fs.writeFileSync("bench/out/quota.json", JSON.stringify({ rounds: ROUNDS, results: report }, null, 2));
await closeDb();
