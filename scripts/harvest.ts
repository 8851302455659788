// `npm run harvest [-- --sources repo,jspkg] [--registry incremental|full|none] [--deadline-ms N]`
//
// One harvest run: the registry listing, then repositories, packages,
// vulnerabilities and liveness (docs/harvester.md). On the embedded database
// while the server runs, the run is handed to the server (PGlite must not be
// opened twice) and its progress streamed back; otherwise it runs here.
import { localServer } from "./lib/local-server";
import { parseArgsOrExit, runJob, withOwnDatabase } from "./lib/run-job";
import { HARVEST_SOURCES, type HarvestProgress, type SourceName } from "@/lib/harvest/harvest-context";
import { runHarvest, type HarvestResult } from "@/lib/harvest/run-harvest";
import { progressPrinter } from "@/lib/harvest/progress-printer";

const { values } = parseArgsOrExit({
  options: {
    sources: { type: "string" },
    registry: { type: "string", default: "incremental" },
    "deadline-ms": { type: "string" },
    help: { type: "boolean", short: "h" },
  },
});

if (values.help) {
  console.log(`usage: npm run harvest -- [--sources ${HARVEST_SOURCES.join(",")}] [--registry incremental|full|none] [--deadline-ms N]`);
  process.exit(0);
}
const sources = values.sources?.split(",").map((s) => s.trim()) as SourceName[] | undefined;
if (sources?.some((s) => !(HARVEST_SOURCES as readonly string[]).includes(s))) {
  console.error(`--sources takes a comma-separated subset of ${HARVEST_SOURCES.join(",")}`);
  process.exit(2);
}
if (!["incremental", "full", "none"].includes(values.registry!)) {
  console.error("--registry is incremental, full or none");
  process.exit(2);
}
if (values["deadline-ms"] !== undefined && !/^\d+$/.test(values["deadline-ms"])) {
  // Number("soon") is NaN and Number("") (`--deadline-ms "$UNSET"`) is 0, which the run would silently take as no
  // deadline at all (0 says so on purpose)
  console.error(`--deadline-ms is a number of milliseconds, 0 for none (got ${JSON.stringify(values["deadline-ms"])})`);
  process.exit(2);
}
const deadlineMs = values["deadline-ms"] === undefined ? undefined : Number(values["deadline-ms"]);
const printer = progressPrinter();

function report(r: HarvestResult) {
  printer.done();
  console.log(`harvest run ${r.runId}: ${r.status} in ${(r.durationMs / 1000).toFixed(1)} s`);
  console.log(`calls: ${JSON.stringify(r.calls)}`);
  if (Object.keys(r.changes).length) console.log(`changes: ${JSON.stringify(r.changes)}`);
  for (const [s, why] of Object.entries(r.stopped)) console.log(`${s} stopped: ${why}`);
  for (const e of r.errors.slice(0, 10)) console.warn(`${e.source} ${e.item}: ${e.error}`);
  if (r.errors.length > 10) console.warn(`… ${r.errors.length - 10} more errors in harvest_runs`);
}

async function viaServer(): Promise<boolean> {
  const server = localServer();
  if (!server) return false;
  console.log(`the server (pid ${server.pid}) holds the embedded database: the run happens there`);
  const params = new URLSearchParams({ stream: "1", trigger: "cli", registry: values.registry!, deadline_ms: String(deadlineMs ?? 0) });
  if (sources) params.set("sources", sources.join(","));
  const res = await server.fetch(`/api/cron/harvest?${params}`);
  if (!res.ok || !res.body) {
    console.error(`harvest failed: HTTP ${res.status} ${await res.text()}`);
    process.exit(1);
  }
  let buffer = "";
  const decoder = new TextDecoder();
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = buffer.indexOf("\n")) >= 0) {
      const line = JSON.parse(buffer.slice(0, nl)) as { progress?: HarvestProgress; result?: HarvestResult; error?: string };
      buffer = buffer.slice(nl + 1);
      if (line.progress) printer.update(line.progress);
      if (line.result) report(line.result);
      if (line.error) {
        printer.done();
        console.error(`harvest failed: ${line.error}`);
        process.exit(1);
      }
    }
  }
  return true;
}

/**
 * Ctrl-C or a service manager's SIGTERM stops the run as a client gone from the server's route does: no further
 * call, the run recorded partial with its sources stopped "aborted". Node's default ended the process mid-run and
 * left its row "running". A second signal ends the process at once; the exit status is the shell's for the signal.
 */
function stopOnSignals(): { signal: AbortSignal; release: () => void } {
  const stop = new AbortController();
  const codes = { SIGINT: 130, SIGTERM: 143 } as const;
  const onSignal = (sig: keyof typeof codes) => {
    if (stop.signal.aborted) process.exit(codes[sig]);
    process.exitCode = codes[sig];
    printer.done();
    console.error(`harvest: ${sig}, stopping: the run ends partial (again to quit at once)`);
    stop.abort();
  };
  for (const sig of Object.keys(codes) as (keyof typeof codes)[]) process.on(sig, onSignal);
  return { signal: stop.signal, release: () => Object.keys(codes).forEach((sig) => process.off(sig, onSignal)) };
}

async function here() {
  const { signal, release } = stopOnSignals();
  try {
    await withOwnDatabase(async (db) => {
      const registry = values.registry === "none" ? false : (values.registry as "incremental" | "full");
      report(await runHarvest(db, { trigger: "cli", sources, registry, deadlineMs, signal, onProgress: (p) => printer.update(p) }));
    });
  } finally {
    release();
  }
}

await runJob("harvest", viaServer, here, () => printer.done());
