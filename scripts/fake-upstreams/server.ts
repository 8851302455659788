import http from "node:http";
import type { AddressInfo } from "node:net";
import { FakeRegistry } from "./registry";
import { FakeGitHub } from "./github";
import { FakeNpm, FakeOsv, FakePypi } from "./packages";
import { FakeMcp } from "./mcp";
import { FaultInjector } from "./faults";

export interface FakeUpstreams {
  url: string;
  /** Base URLs to put in REGISTRY_URL, GITHUB_API_URL, NPM_REGISTRY_URL, PYPI_URL, OSV_API_URL. */
  env: Record<string, string>;
  registry: FakeRegistry;
  github: FakeGitHub;
  npm: FakeNpm;
  pypi: FakePypi;
  osv: FakeOsv;
  mcp: FakeMcp;
  faults: FaultInjector;
  /** HTTP requests received, by source. */
  calls: Record<string, number>;
  /** Added to every answer (ms). */
  latencyMs: number;
  /** Sets the env variables above in process.env. */
  applyEnv(): void;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Every upstream the harvester reads, on one loopback port, by path prefix:
 * /registry (MCP registry), /github (REST + /github/graphql), /npm, /pypi,
 * /osv, and MCP endpoints at /mcp/{id} and /sse/{id}.
 */
export async function startFakeUpstreams(opts: { port?: number; host?: string; latencyMs?: number } = {}): Promise<FakeUpstreams> {
  const registry = new FakeRegistry();
  const github = new FakeGitHub();
  const npm = new FakeNpm();
  const pypi = new FakePypi();
  const osv = new FakeOsv();
  const mcp = new FakeMcp();
  const faults = new FaultInjector();
  const calls: Record<string, number> = {};
  let baseUrl = "";

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", "http://fake");
    // control: POST /_faults {source, kind, count?, resetAfterSec?} adds a fault; DELETE /_faults clears them
    if (url.pathname === "/_faults") {
      if (req.method === "DELETE") faults.clear();
      else if (req.method === "POST") {
        try {
          faults.add(JSON.parse(body));
        } catch {
          return void res.writeHead(400).end("body: {source, kind, count?, resetAfterSec?}");
        }
      }
      return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ served: faults.served }));
    }
    const prefix = /^\/(registry|github|npm|pypi|osv|mcp|sse)(?=\/|$)/.exec(url.pathname)?.[1] ?? "";
    const source = prefix === "sse" ? "mcp" : prefix;
    calls[source || "other"] = (calls[source || "other"] ?? 0) + 1;
    if (fake.latencyMs > 0) await sleep(fake.latencyMs);
    try {
      if (source && faults.apply(source, req, res)) return;
      const rest = prefix === "mcp" || prefix === "sse" ? url.pathname : url.pathname.slice(prefix.length + 1) || "/";
      let handled = false;
      switch (prefix) {
        case "registry":
          req.url = rest + url.search;
          handled = registry.handle(req, res);
          break;
        case "github":
          handled = github.handle(rest, req, res, body, `${baseUrl}/github`);
          break;
        case "npm":
          handled = npm.handle(url.pathname.slice("/npm".length), req, res);
          break;
        case "pypi":
          handled = pypi.handle(rest, req, res, `${baseUrl}/pypi`);
          break;
        case "osv":
          handled = osv.handle(rest, req, res, body);
          break;
        case "mcp":
        case "sse":
          handled = await mcp.handle(url.pathname, req, res, body, baseUrl);
          break;
      }
      if (!handled && !res.headersSent) res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ message: "Not Found" }));
    } catch (err) {
      if (!res.headersSent) res.writeHead(500).end(String((err as Error).message));
    }
  });
  server.keepAliveTimeout = 65_000;
  // a port in use rejects (upstreams:fake says so) instead of an unhandled 'error' event
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(opts.port ?? 0, opts.host ?? "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://${opts.host && opts.host !== "0.0.0.0" ? opts.host : "127.0.0.1"}:${port}`;
  const env = {
    REGISTRY_URL: `${baseUrl}/registry`,
    GITHUB_API_URL: `${baseUrl}/github`,
    NPM_REGISTRY_URL: `${baseUrl}/npm`,
    PYPI_URL: `${baseUrl}/pypi`,
    OSV_API_URL: `${baseUrl}/osv`,
  };
  const fake: FakeUpstreams = {
    url: baseUrl,
    env,
    registry,
    github,
    npm,
    pypi,
    osv,
    mcp,
    faults,
    calls,
    latencyMs: opts.latencyMs ?? 0,
    applyEnv() {
      Object.assign(process.env, env);
      process.env.GITHUB_TOKEN ||= "fake-token";
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}
