import http from "node:http";
import { median, percentile, type LoadRequest } from "./bench-server";

export interface PacedRun {
  /** Requests a second offered (and, when the server keeps up, answered). */
  rate: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  requests: number;
  /** Answers other than 2xx, and requests that failed or were never answered. */
  failures: number;
}

/**
 * An open-loop load: `connections` keep-alive connections held open, each sending one request every
 * connections / rate seconds, their sends spread evenly over that period, for `seconds`.
 *
 * autocannon's closed loop (each connection sends its next request as its answer arrives) measures a saturated
 * server, where latency is only connections ÷ throughput. This measures the latency the same connections see
 * at a rate the server can serve, the other half of the question a latency goal asks. autocannon's own rate
 * option does not do it: every connection sends its second's requests at once when its one-second timer fires,
 * and the timers of connections opened together fire together, a burst of all of them each second.
 *
 * A request is timed from when it was due, not from when it went out, so that a connection still waiting for
 * its previous answer adds that wait (no coordinated omission).
 */
export async function pacedRun(label: string, base: string, connections: number, rate: number, seconds: number, req: LoadRequest): Promise<PacedRun> {
  const url = new URL(base);
  const agents = Array.from({ length: connections }, () => new http.Agent({ keepAlive: true, maxSockets: 1 }));
  const send = (agent: http.Agent) =>
    new Promise<boolean>((resolve) => {
      const body = req.body?.();
      const r = http.request(
        { host: url.hostname, port: url.port, method: req.method, path: req.path(), agent, headers: { ...req.headers?.(), ...(body !== undefined && { "content-length": Buffer.byteLength(body) }) } },
        (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode! >= 200 && res.statusCode! < 300));
          res.on("error", () => resolve(false));
        },
      );
      r.on("error", () => resolve(false));
      r.setTimeout(30_000, () => r.destroy());
      r.end(body);
    });
  // open every connection before the clock starts (their first answers are not timed)
  await Promise.all(agents.map((a) => send(a)));

  const latencies: number[] = [];
  let failures = 0;
  const period = (connections / rate) * 1000;
  const start = performance.now() + 100;
  const end = start + seconds * 1000;
  const sleepUntil = (t: number) => new Promise((r) => setTimeout(r, Math.max(0, t - performance.now())));
  await Promise.all(
    agents.map(async (agent, c) => {
      for (let due = start + (c * period) / connections; due < end; due += period) {
        await sleepUntil(due);
        const ok = await send(agent);
        latencies.push(performance.now() - due);
        if (!ok) failures++;
      }
    }),
  );
  for (const a of agents) a.destroy();

  latencies.sort((a, b) => a - b);
  const at = (p: number) => percentile(latencies, p);
  const run: PacedRun = { rate, p50: at(50), p95: at(95), p99: at(99), max: latencies.at(-1) ?? NaN, requests: latencies.length, failures };
  console.log(
    `${label.padEnd(16)} paced ${rate} req/s over ${connections} connections: p50 ${run.p50.toFixed(1)} ms   p95 ${run.p95.toFixed(1)} ms   p99 ${run.p99.toFixed(1)} ms   max ${run.max.toFixed(0)} ms   (${run.requests} requests, ${failures} failed)`,
  );
  return run;
}

/**
 * `baseline` and `candidate` paced alternately at one rate, `rounds` times each: the medians of their p95 and
 * p99 (a shared machine's neighbours make single runs' tails differ severalfold).
 */
export async function pacedComparison(
  base: string,
  connections: number,
  rate: number,
  seconds: number,
  rounds: number,
  baseline: { label: string; req: LoadRequest },
  candidate: { label: string; req: LoadRequest },
): Promise<{ baseline: { p95: number; p99: number }; candidate: { p95: number; p99: number } }> {
  const b: PacedRun[] = [];
  const c: PacedRun[] = [];
  for (let i = 0; i < rounds; i++) {
    b.push(await pacedRun(baseline.label, base, connections, rate, seconds, baseline.req));
    c.push(await pacedRun(candidate.label, base, connections, rate, seconds, candidate.req));
  }
  const medians = (runs: PacedRun[]) => ({ p95: median(runs.map((r) => r.p95)), p99: median(runs.map((r) => r.p99)) });
  const result = { baseline: medians(b), candidate: medians(c) };
  const fmt = (label: string, r: { p95: number; p99: number }) => `${label} p95 ${r.p95.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms`;
  console.log(
    `paced at ${rate} req/s over ${connections} connections, medians of ${rounds} rounds: ${fmt(baseline.label, result.baseline)}; ${fmt(candidate.label, result.candidate)}`,
  );
  return result;
}

/** The rate a paced phase offers by default: half the throughput `rps` the server reached saturated, in tens. */
export const halfOf = (rps: number) => Math.max(10, Math.round(rps / 2 / 10) * 10);
