import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { spawn, type ChildProcess } from "node:child_process";
import { SERVER_NODE_FLAGS } from "../../scripts/server-node-flags.mjs";

export interface RunningServer {
  url: string;
  dataDir: string;
  /** Everything the server printed so far. */
  log: () => string;
  /** SIGTERM, then SIGKILL after 5 s; the data directory is removed unless `keepDataDir`. */
  stop: (opts?: { keepDataDir?: boolean }) => Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

function serverEnv(port: number, dataDir: string, extraEnv: Record<string, string>): NodeJS.ProcessEnv {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    // the server must not inherit the test runner's database or mail settings
    if (v !== undefined && !/^(DATABASE_URL|TEST_DATABASE_URL|TEST_DB|SMTP_URL|NEXTAUTH_URL|NEXTAUTH_SECRET|VITEST.*)$/.test(k)) env[k] = v;
  }
  return Object.assign(env, {
    NODE_ENV: "production" as const,
    PORT: String(port),
    HOSTNAME: "127.0.0.1",
    DATA_DIR: dataDir,
    BOOT_INGEST: "0",
    // no background harvest (it would reach the internet) or delivery timer: a test runs what it needs
    HARVEST_INTERVAL_MS: "0",
    DELIVER_INTERVAL_MS: "0",
    SITE_URL: `http://127.0.0.1:${port}`,
    LOG_FORMAT: "text",
    NEXT_TELEMETRY_DISABLED: "1",
    ...extraEnv,
  });
}

function spawnServer(env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, [...SERVER_NODE_FLAGS, "scripts/server.mjs"], { env, stdio: ["ignore", "pipe", "pipe"] });
}

/**
 * The production server started with settings it cannot start with: how it exits, and all it printed. A server
 * still running after `timeoutMs` is killed and reported with status null.
 */
export async function startServerToExit(
  extraEnv: Record<string, string>,
  opts: { port?: number; timeoutMs?: number } = {},
): Promise<{ status: number | null; output: string }> {
  const port = opts.port ?? (process.env.E2E_PORT ? Number(process.env.E2E_PORT) : await freePort());
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "mcp-preflight-e2e-"));
  const child = spawnServer(serverEnv(port, dataDir, extraEnv));
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const status = await Promise.race([exited, new Promise<"running">((r) => setTimeout(() => r("running"), opts.timeoutMs ?? 30_000))]);
  if (status === "running") {
    child.kill("SIGKILL");
    await exited;
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  return { status: status === "running" ? null : status, output };
}

/**
 * The production server (scripts/server.mjs) on a free loopback port, embedded database in a temp dir.
 * `beforeStart` may fill that database first (it must close it again: PGlite is one process's database);
 * `whileStarting` runs from the moment the process is spawned, and is awaited before this returns.
 */
export async function startServer(
  extraEnv: Record<string, string> = {},
  opts: { beforeStart?: (dataDir: string) => Promise<void>; whileStarting?: (dataDir: string) => Promise<void> } = {},
): Promise<RunningServer> {
  // E2E_PORT pins the port (several checkouts testing on one machine, each in its own range); one server at a time then
  const port = process.env.E2E_PORT ? Number(process.env.E2E_PORT) : await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "mcp-preflight-e2e-"));
  await opts.beforeStart?.(dataDir);
  const url = `http://127.0.0.1:${port}`;
  const child = spawnServer(serverEnv(port, dataDir, extraEnv));
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const alongside = opts.whileStarting?.(dataDir);
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    try {
      const res = await fetch(`${url}/signin`);
      if (res.status < 500) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`server did not start in 60 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  await alongside;
  return {
    url,
    dataDir,
    log: () => output,
    stop: async (stopOpts = {}) => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill("SIGKILL");
      }
      if (!stopOpts.keepDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
