// bench/ingest: servers ingested per second for the largest shared snapshot, on
// embedded PGlite and on the Postgres server, against a baseline measured in the
// same run (reading and normalising the dump without writing it).
// Goal (issue 2): the whole snapshot in under 10 s on either database.
//   npx tsx bench/ingest.ts        BENCH_DATABASE_URL=postgres://… to choose the server
import fs from "node:fs";
import path from "node:path";
import { openDatabase } from "@/lib/db/client";
import { migrateDatabase } from "@/lib/db/migrate";
import { readDumpFile } from "@/lib/catalog/read-dump";
import { ingestDump } from "@/lib/catalog/ingest-dump";
import { normalizeRegistryEntry } from "@/lib/catalog/normalize-registry-entry";
import { freshBenchDatabaseOrSkip } from "./lib/bench-db";

const dir = path.resolve("../shared/data/registry-snapshots");
if (!fs.existsSync(dir)) {
  console.log(`bench/ingest: ${dir} is absent; nothing to measure`);
  process.exit(0);
}
const file = fs
  .readdirSync(dir)
  .map((f) => path.join(dir, f))
  .reduce((a, b) => (fs.statSync(b).size > fs.statSync(a).size ? b : a));

const t0 = performance.now();
const entries = await readDumpFile(file);
for (const e of entries) normalizeRegistryEntry(e);
const baselineMs = performance.now() - t0;
const names = new Set(entries.map((e) => normalizeRegistryEntry(e).name)).size;
console.log(`snapshot ${path.basename(file)}: ${entries.length} rows, ${names} servers`);
console.log(`baseline (read + normalise, no database): ${baselineMs.toFixed(0)} ms`);

for (const [label, url] of [
  ["pglite", "pglite:memory"],
  ["postgres", await freshBenchDatabaseOrSkip("mcp_preflight_bench", "bench/ingest")],
] as const) {
  if (!url) continue;
  const h = await openDatabase(url);
  await migrateDatabase(h, url);
  const a = performance.now();
  const first = await ingestDump(h.db, entries, file);
  const fullMs = performance.now() - a;
  const b = performance.now();
  await ingestDump(h.db, entries, file);
  const againMs = performance.now() - b;
  await h.close();
  console.log(
    `${label.padEnd(8)} full ingest ${fullMs.toFixed(0)} ms = ${((names / fullMs) * 1000).toFixed(0)} servers/s ` +
      `(${(fullMs / baselineMs).toFixed(1)}× baseline; goal < 10000 ms: ${fullMs < 10_000 ? "met" : "MISSED"}); ` +
      `re-ingest (no changes) ${againMs.toFixed(0)} ms = ${(againMs / baselineMs).toFixed(1)}× baseline; ` +
      `${first.counts.versionsInserted} versions written`,
  );
}
