import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { once } from "node:events";
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { freePort, startServer, startServerToExit } from "./helpers/server";

// Ctrl-C on `npm start` (SIGTERM from a process manager) must close the embedded database: a PGlite directory
// left open starts the next time in crash recovery, and an interrupted one has been seen not to open at all.
describe("stopping the server on the embedded database", () => {
  it("closes PGlite on SIGTERM: a clean shutdown in pg_control and the lock released", async () => {
    const server = await startServer({ MAINTENANCE_INTERVAL_MS: "0" });
    expect((await fetch(`${server.url}/v1/health`)).status).toBe(200);
    const dir = path.join(server.dataDir, "pglite");
    expect(fs.existsSync(`${dir}.lock`)).toBe(true);
    await server.stop({ keepDataDir: true });
    try {
      // pg_control's DBState, an int32 at byte 16: 1 = shut down, 6 = in production (exited while open)
      expect(fs.readFileSync(path.join(dir, "global/pg_control")).readInt32LE(16)).toBe(1);
      expect(fs.existsSync(`${dir}.lock`)).toBe(false);
    } finally {
      fs.rmSync(server.dataDir, { recursive: true, force: true });
    }
  });
});

// `npm start` runs scripts/start.mjs through `sh -c`: a SIGTERM to npm alone (a process manager, `docker stop` with npm
// as the container's first process) ended npm and the shell, and the server ran on, orphaned, holding the port and
// the database's lock.
describe("npm start stopped by a signal to npm alone", () => {
  it("stops the server and releases the embedded database", async () => {
    const port = process.env.E2E_PORT ? Number(process.env.E2E_PORT) : await freePort();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "mcp-preflight-e2e-npm-"));
    const npm = spawn("npm", ["start"], {
      env: { ...process.env, PORT: String(port), HOSTNAME: "127.0.0.1", DATA_DIR: dataDir, BOOT_INGEST: "0", HARVEST_INTERVAL_MS: "0", DELIVER_INTERVAL_MS: "0" },
      stdio: "ignore",
    });
    try {
      const up = async () => fetch(`http://127.0.0.1:${port}/v1/health`).then((r) => r.ok, () => false);
      for (let i = 0; i < 240 && !(await up()); i++) await new Promise((r) => setTimeout(r, 250));
      expect(await up()).toBe(true);
      npm.kill("SIGTERM");
      const lock = path.join(dataDir, "pglite.lock");
      for (let i = 0; i < 60 && ((await up()) || fs.existsSync(lock)); i++) await new Promise((r) => setTimeout(r, 250));
      expect(await up()).toBe(false);
      expect(fs.existsSync(lock)).toBe(false);
    } finally {
      npm.kill("SIGKILL");
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

// A setting the server cannot start with is one line and exit 1 at start. Before, Node's error for a bad or taken
// port, and any failure of the start itself (DATABASE_URL, DATA_DIR, the database), reached Next.js's handlers,
// which logged its stack trace and kept the process running: listening nowhere, or answering every request
// (/v1/health too) with a plain-text 500 for good.
describe("starting the server with a setting it cannot use", () => {
  function expectOneClearLine(run: { status: number | null; output: string }, message: RegExp) {
    expect(run.status, run.output).toBe(1);
    expect(run.output).toMatch(message);
    expect(run.output, "no stack trace").not.toMatch(/^\s+at /m);
    expect(run.output).not.toMatch(/uncaughtException|unhandledRejection|Failed to prepare server/);
  }

  it("PORT that is not a port", async () => {
    expectOneClearLine(await startServerToExit({ PORT: "http" }), /^mcp-preflight cannot start: PORT must be a whole number from 1 to 65535 \(got "http"\)$/m);
  });

  it("a port another process listens on", async () => {
    const port = process.env.E2E_PORT ? Number(process.env.E2E_PORT) : await freePort();
    const other = net.createServer().listen(port, "127.0.0.1");
    await once(other, "listening");
    try {
      expectOneClearLine(await startServerToExit({}, { port }), new RegExp(`^mcp-preflight cannot start: cannot listen on 127\\.0\\.0\\.1:${port}: the port is in use`, "m"));
    } finally {
      other.close();
    }
  });

  it("a numeric setting that is no number", async () => {
    expectOneClearLine(
      await startServerToExit({ DELIVER_INTERVAL_MS: "5s" }),
      /^mcp-preflight cannot start: DELIVER_INTERVAL_MS must be a whole number from 0 to 2147483647 \(got "5s"\)$/m,
    );
  });

  it("a DATABASE_URL of another database, and a DATA_DIR that cannot be created", async () => {
    expectOneClearLine(
      await startServerToExit({ DATABASE_URL: "mysql://db.example/app" }),
      /^mcp-preflight cannot start: DATABASE_URL must start with postgres:\/\/, postgresql:\/\/ or pglite: \(got mysql:…\)$/m,
    );
    const file = path.join(os.tmpdir(), `mcp-preflight-e2e-file-${process.pid}`);
    fs.writeFileSync(file, "");
    try {
      expectOneClearLine(await startServerToExit({ DATA_DIR: path.join(file, "data") }), /^mcp-preflight cannot start: ENOTDIR: not a directory/m);
    } finally {
      fs.rmSync(file, { force: true });
    }
  });
});
