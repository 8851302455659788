import fs from "node:fs";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import autocannon from "autocannon";
import { SERVER_NODE_FLAGS } from "../../scripts/server-node-flags.mjs";
import { procStatFields } from "@/lib/boot/pid-alive";

/** Builds the app unless BENCH_SKIP_BUILD is set (a bench measures the production server). */
export function buildOnce(): void {
  if (process.env.BENCH_SKIP_BUILD) return;
  console.log("building (next build)…");
  const r = spawnSync(process.execPath, ["node_modules/next/dist/bin/next", "build"], { stdio: "ignore", env: { ...process.env, NEXT_IGNORE_INCORRECT_LOCKFILE: "1" } });
  if (r.status !== 0) throw new Error("next build failed");
}

export interface BenchServer {
  base: string;
  pid: number | undefined;
  /** CPU seconds the server process has used so far (user + system), NaN where /proc is not there. */
  cpuSeconds(): number;
  stop(): Promise<void>;
}

/**
 * CPU seconds used by process `pid` (user + system, its own threads included) from /proc. On a shared
 * two-core machine throughput drifts with the neighbours; CPU time per request hardly does, so it is the
 * steadier figure for comparing two routes of one server.
 */
function processCpuSeconds(pid: number | undefined): number {
  const fields = pid === undefined ? null : procStatFields(pid);
  // utime and stime are fields 14 and 15, in clock ticks (100 a second)
  return fields ? (Number(fields[14 - 3]) + Number(fields[15 - 3])) / 100 : NaN;
}

/**
 * CPU ticks used so far by each process of a Postgres server on this machine (every process named
 * "postgres": postmaster, background workers and backends), by pid; null where /proc is not there. The
 * database shares the machine's two cores with the server under test, so its CPU per request is part of a
 * route's cost.
 */
function databaseCpuTicks(): Map<number, number> | null {
  let dirs: string[];
  try {
    dirs = fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d));
  } catch {
    return null;
  }
  const ticks = new Map<number, number>();
  for (const d of dirs) {
    try {
      if (fs.readFileSync(`/proc/${d}/comm`, "utf8").trim() !== "postgres") continue;
    } catch {
      continue;
    }
    const fields = procStatFields(Number(d));
    if (fields) ticks.set(Number(d), Number(fields[14 - 3]) + Number(fields[15 - 3]));
  }
  return ticks;
}

/** Database CPU seconds between two readings: processes started since count in full, ones that exited not at all. */
function databaseCpuSecondsSince(before: Map<number, number> | null): number {
  const after = databaseCpuTicks();
  if (!before || !after) return NaN;
  let ticks = 0;
  for (const [pid, t] of after) ticks += t - (before.get(pid) ?? 0);
  return ticks / 100;
}

/** The production server (scripts/server.mjs) on `databaseUrl`, waited for until GET /v1/health answers. */
export async function startBenchServer(databaseUrl: string, port: number, env: Record<string, string> = {}): Promise<BenchServer> {
  const base = `http://127.0.0.1:${port}`;
  // BENCH_PROFILE=<dir> writes the server's V8 CPU profile there when it stops (where does a request's time go?);
  // BENCH_TRACE_GC=1 prints each of its garbage collections (Node refuses --trace-gc in NODE_OPTIONS) on the
  // bench's output (is a latency tail a collection's pause?); BENCH_NODE_FLAGS="--max-semi-space-size=16 …"
  // overrides the server's flags (scripts/server-node-flags.mjs) to compare settings
  const traceGc = process.env.BENCH_TRACE_GC ? ["--trace-gc"] : [];
  const extraFlags = process.env.BENCH_NODE_FLAGS?.split(/\s+/).filter(Boolean) ?? [];
  const profile = process.env.BENCH_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  const child: ChildProcess = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...extraFlags, ...traceGc, ...profile, "scripts/server.mjs"], {
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOSTNAME: "127.0.0.1", DATABASE_URL: databaseUrl, BOOT_INGEST: "0", HARVEST_INTERVAL_MS: "0", DELIVER_INTERVAL_MS: "0", LOG_FORMAT: "text", LOG_LEVEL: "silent", ...env },
    stdio: ["ignore", traceGc.length ? "inherit" : "ignore", "inherit"],
  });
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/v1/health`)).ok) break;
    } catch {
      /* not listening yet */
    }
    if (child.exitCode !== null || i > 600) throw new Error("bench server did not start");
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base,
    pid: child.pid,
    cpuSeconds: () => processCpuSeconds(child.pid),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

export interface LoadRun {
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  /**
   * p99 of the answers after each connection's first. A first answer also waits for its connection to be
   * accepted, and under saturation Node accepts one new connection per event-loop turn (libuv ≥ 1.45), so
   * at a run's start a share of its connections wait seconds while the others are served (docs/preflight.md).
   */
  p99Steady: number;
  /** The slowest first answer of a connection (its accept wait included). */
  firstMax: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** Server CPU milliseconds per request during the run (NaN when not measured). */
  cpuMsPerRequest: number;
  /** Local Postgres CPU milliseconds per request during the run (NaN when not measured). */
  dbCpuMsPerRequest: number;
}

export interface LoadRequest {
  method: "GET" | "POST";
  path: () => string;
  headers?: () => Record<string, string>;
  body?: () => string;
}

/** One autocannon run; latencies are collected per response so every percentile is exact. */
export function loadRun(
  label: string,
  base: string,
  connections: number,
  duration: number,
  req: LoadRequest,
  cpuSeconds: () => number = () => NaN,
): Promise<LoadRun> {
  return new Promise((resolve, reject) => {
    const latencies: number[] = [];
    const steady: number[] = [];
    const answered = new Set<unknown>();
    let firstMax = 0;
    const cpuBefore = cpuSeconds();
    const dbCpuBefore = databaseCpuTicks();
    const instance = autocannon(
      {
        url: base,
        connections,
        duration,
        requests: [
          {
            method: req.method,
            setupRequest: (r: Record<string, unknown>) => ({ ...r, path: req.path(), headers: req.headers?.() ?? {}, ...(req.body ? { body: req.body() } : {}) }),
          },
        ],
      },
      (err: Error | null, result: autocannon.Result) => {
        if (err) return reject(err);
        latencies.sort((a, b) => a - b);
        steady.sort((a, b) => a - b);
        const at = (p: number, xs = latencies) => percentile(xs, p);
        const run: LoadRun = {
          rps: result.requests.average,
          p50: at(50),
          p95: at(95),
          p99: at(99),
          p99Steady: at(99, steady),
          firstMax,
          requests: result.requests.total,
          non2xx: result.non2xx,
          errors: result.errors + result.timeouts,
          cpuMsPerRequest: ((cpuSeconds() - cpuBefore) * 1000) / result.requests.total,
          dbCpuMsPerRequest: (databaseCpuSecondsSince(dbCpuBefore) * 1000) / result.requests.total,
        };
        const cpu =
          (Number.isNaN(run.cpuMsPerRequest) ? "" : `   server CPU ${run.cpuMsPerRequest.toFixed(2)} ms/req`) +
          (Number.isNaN(run.dbCpuMsPerRequest) ? "" : `, database CPU ${run.dbCpuMsPerRequest.toFixed(2)} ms/req`);
        console.log(
          `${label.padEnd(16)} ${run.rps.toFixed(0).padStart(6)} req/s   p50 ${run.p50.toFixed(1)} ms   p95 ${run.p95.toFixed(1)} ms   p99 ${run.p99.toFixed(1)} ms (${run.p99Steady.toFixed(1)} ms after each connection's first answer, slowest first ${run.firstMax.toFixed(0)} ms)${cpu}   (${run.requests} requests, ${run.non2xx} non-2xx, ${run.errors} errors)`,
        );
        resolve(run);
      },
    );
    instance.on("response", (client: unknown, _s: number, _b: number, responseTime: number) => {
      latencies.push(responseTime);
      if (answered.has(client)) steady.push(responseTime);
      else {
        answered.add(client);
        firstMax = Math.max(firstMax, responseTime);
      }
    });
  });
}

export interface Comparison {
  /** Medians over the rounds of each figure. */
  baseline: LoadRun;
  candidate: LoadRun;
  /** Median over the rounds of candidate rps / baseline rps (each round's pair ran back to back). */
  throughputRatio: number;
  /** Median over the rounds of baseline / candidate server CPU per request: the throughput ratio a server
   * bound by its own CPU would reach (NaN when not measured). */
  cpuRatio: number;
}

/** The p-th percentile of ascending `sorted` (the answer at that rank; NaN when there are none). */
export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function medianRun(runs: LoadRun[]): LoadRun {
  const pick = (k: keyof LoadRun) => median(runs.map((r) => r[k]));
  return {
    rps: pick("rps"),
    p50: pick("p50"),
    p95: pick("p95"),
    p99: pick("p99"),
    p99Steady: pick("p99Steady"),
    firstMax: pick("firstMax"),
    requests: pick("requests"),
    non2xx: pick("non2xx"),
    errors: pick("errors"),
    cpuMsPerRequest: pick("cpuMsPerRequest"),
    dbCpuMsPerRequest: pick("dbCpuMsPerRequest"),
  };
}

/**
 * Runs the baseline and the candidate alternately, `rounds` times each, and reports medians. On a shared
 * machine (these are virtual cores whose speed drifts from minute to minute) a single pair of runs can
 * differ by half just from when each ran; alternating and taking the median ratio cancels most of that.
 */
export async function compareLoads(
  base: string,
  connections: number,
  seconds: number,
  rounds: number,
  baseline: { label: string; req: LoadRequest },
  candidate: { label: string; req: LoadRequest },
  cpuSeconds: () => number = () => NaN,
): Promise<Comparison> {
  const b: LoadRun[] = [];
  const c: LoadRun[] = [];
  for (let i = 0; i < rounds; i++) {
    b.push(await loadRun(baseline.label, base, connections, seconds, baseline.req, cpuSeconds));
    c.push(await loadRun(candidate.label, base, connections, seconds, candidate.req, cpuSeconds));
  }
  const result = {
    baseline: medianRun(b),
    candidate: medianRun(c),
    throughputRatio: median(c.map((r, i) => r.rps / b[i].rps)),
    cpuRatio: median(c.map((r, i) => b[i].cpuMsPerRequest / r.cpuMsPerRequest)),
  };
  const fmt = (r: LoadRun) =>
    `${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms (${r.p99Steady.toFixed(1)} ms after first answers)`;
  console.log(`medians of ${rounds} rounds: ${baseline.label} ${fmt(result.baseline)}; ${candidate.label} ${fmt(result.candidate)}`);
  if (!Number.isNaN(result.cpuRatio)) {
    console.log(
      `server CPU per request: ${baseline.label} ${result.baseline.cpuMsPerRequest.toFixed(2)} ms, ${candidate.label} ${result.candidate.cpuMsPerRequest.toFixed(2)} ms ` +
        `(${baseline.label} / ${candidate.label}: ${result.cpuRatio.toFixed(3)}×, the throughput ratio of a server bound by its own CPU)`,
    );
  }
  if (!Number.isNaN(result.candidate.dbCpuMsPerRequest)) {
    console.log(
      `local Postgres CPU per request: ${baseline.label} ${result.baseline.dbCpuMsPerRequest.toFixed(2)} ms, ${candidate.label} ${result.candidate.dbCpuMsPerRequest.toFixed(2)} ms ` +
        `(on the same cores as the server and the load generator)`,
    );
  }
  return result;
}
