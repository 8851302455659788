// bench/deliver: webhook deliveries per second to a local HTTPS receiver and the
// lag from change to delivery, on embedded PGlite and on the Postgres server,
// against a baseline measured in the same run (the same signed POSTs sent
// straight through fetchPublic at the same concurrency, no database).
// Goal (issue 7): 10,000 queued events delivered in under 60 s on 2 cores.
//   npx tsx bench/deliver.ts        BENCH_DATABASE_URL=postgres://… to choose the server
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import https from "node:https";
import type { AddressInfo } from "node:net";
import selfsigned from "selfsigned";
import { count, eq } from "drizzle-orm";
import { openDatabase, type Db } from "@/lib/db/client";
import { migrateDatabase } from "@/lib/db/migrate";
import { watchDeliveries, watches } from "@/lib/db/schema";
import { DELIVERY_CONCURRENCY } from "@/lib/config";
import { runDeliveries } from "@/lib/watches/run-deliveries";
import { sendWebhook } from "@/lib/watches/send-webhook";
import { keyedAccount, loadFixtureCatalog } from "../tests/helpers/catalog-fixture";
import { insertWatch, recordTestChanges } from "../tests/helpers/watch-fixture";
import { freshBenchDatabaseOrSkip } from "./lib/bench-db";

process.env.LOG_LEVEL ??= "silent";
const QUEUED_WATCHES = 100;
const QUEUED_CHANGES = 100; // × 100 watches = 10,000 events
const LAG_WATCHES = 10;
const LAG_SECONDS = 5;
const LAG_CHANGE_EVERY_MS = 20;
const SERVER = "io.github.acme/weather";

// ── the receiver: HTTPS with a certificate made now, trusted through the test-only extra CA ──
const pems = await selfsigned.generate([{ name: "commonName", value: "localhost" }], {
  keyType: "ec",
  algorithm: "sha256",
  extensions: [
    { name: "basicConstraints", cA: true },
    { name: "subjectAltName", altNames: [{ type: 7, ip: "127.0.0.1" }] },
  ],
});
const caFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "bench-deliver-")), "ca.pem");
fs.writeFileSync(caFile, pems.cert);
process.env.OUTBOUND_EXTRA_CA_FILE = caFile;
process.env.OUTBOUND_ALLOW_HOSTS = "127.0.0.1";

let received = 0;
const lags: number[] = [];
let measureLag = false;
const server = https.createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
  const parts: Buffer[] = [];
  req.on("data", (c: Buffer) => parts.push(c));
  req.on("end", () => {
    received++;
    if (measureLag) {
      const createdAt = JSON.parse(Buffer.concat(parts).toString("utf8")).created_at as string;
      lags.push(Date.now() - Date.parse(createdAt));
    }
    res.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;

// ── baseline: the same POSTs without the outbox ──
const BASELINE_N = 3000;
let baselineRate = 0;
{
  const body = JSON.stringify({ id: "evt_bench", type: "remote_down", data: { before: null, after: null } });
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: DELIVERY_CONCURRENCY }, async () => {
      while (next < BASELINE_N) {
        const i = next++;
        const r = await sendWebhook({ url: `${base}/w${i % QUEUED_WATCHES}`, body, secret: "whsec_bench", eventId: "evt_bench", kind: "remote_down", watchId: "wat_bench" }, 10_000);
        if (!r.ok) throw new Error(`baseline POST failed: ${r.error}`);
      }
    }),
  );
  baselineRate = (BASELINE_N / (performance.now() - t0)) * 1000;
  console.log(`baseline: ${BASELINE_N} signed POSTs straight through fetchPublic, ${DELIVERY_CONCURRENCY} at once: ${baselineRate.toFixed(0)}/s`);
}

const pending = async (db: Db) =>
  (await db.select({ n: count() }).from(watchDeliveries).where(eq(watchDeliveries.status, "pending")))[0].n;

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

for (const [label, url] of [
  ["pglite", "pglite:memory"],
  ["postgres", await freshBenchDatabaseOrSkip("mcp_preflight_deliver_bench", "bench/deliver")],
] as const) {
  if (!url) continue;
  const h = await openDatabase(url);
  await migrateDatabase(h, url);
  const db = h.db;
  await loadFixtureCatalog(db);
  const account = await keyedAccount(db, { tier: "pro" });

  // 1. drain: 10,000 events already queued
  for (let i = 0; i < QUEUED_WATCHES; i++) await insertWatch(db, { accountId: account.accountId, serverName: SERVER, webhookUrl: `${base}/w${i}` });
  const q0 = performance.now();
  for (let i = 0; i < QUEUED_CHANGES; i += 10) {
    await recordTestChanges(db, SERVER, Array.from({ length: 10 }, (_, k) => ({ kind: (i + k) % 2 ? "remote_up" : "remote_down", after: { seq: i + k } }) as const));
  }
  const queueMs = performance.now() - q0;
  const queued = await pending(db);
  received = 0;
  const t0 = performance.now();
  let runs = 0;
  while ((await pending(db)) > 0 && runs < 50) {
    await runDeliveries(db, { budgetMs: 120_000 });
    runs++;
  }
  const drainMs = performance.now() - t0;
  const left = await pending(db);
  const rate = (queued / drainMs) * 1000;
  console.log(
    `${label.padEnd(8)} drain: ${queued} queued events (written in ${queueMs.toFixed(0)} ms with their changes) delivered in ${(drainMs / 1000).toFixed(1)} s = ` +
      `${rate.toFixed(0)} deliveries/s (${(rate / baselineRate).toFixed(2)}× baseline; goal < 60 s: ${drainMs < 60_000 && left === 0 ? "met" : "MISSED"}); ` +
      `receiver saw ${received}, ${left} left pending`,
  );

  // 2. lag: changes arrive every 20 ms for 5 s while a worker polls (as the server's timer or `npm run deliver -- --loop` does)
  await db.update(watchDeliveries).set({ status: "cancelled" }).where(eq(watchDeliveries.status, "pending"));
  await db.update(watches).set({ status: "unsubscribed" });
  for (let i = 0; i < LAG_WATCHES; i++) await insertWatch(db, { accountId: account.accountId, serverName: SERVER, webhookUrl: `${base}/lag${i}` });
  lags.length = 0;
  measureLag = true;
  let producing = true;
  const worker = (async () => {
    while (producing || (await pending(db)) > 0) {
      const r = await runDeliveries(db, { budgetMs: 5_000 });
      if (!r.attempts) await new Promise((res) => setTimeout(res, 50));
    }
  })();
  const end = Date.now() + LAG_SECONDS * 1000;
  let changes = 0;
  while (Date.now() < end) {
    await recordTestChanges(db, SERVER, [{ kind: changes % 2 ? "remote_up" : "remote_down", after: { seq: changes } }]);
    changes++;
    await new Promise((res) => setTimeout(res, LAG_CHANGE_EVERY_MS));
  }
  producing = false;
  await worker;
  measureLag = false;
  console.log(
    `${label.padEnd(8)} lag: ${changes} changes × ${LAG_WATCHES} watches over ${LAG_SECONDS} s, worker polling every 50 ms when idle: ` +
      `change→delivery p50 ${pct(lags, 50)} ms, p95 ${pct(lags, 95)} ms, max ${Math.max(...lags)} ms (${lags.length} deliveries)`,
  );
  await h.close();
}

server.closeAllConnections();
server.close();
process.exit(0);
