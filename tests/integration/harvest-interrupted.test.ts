import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn } from "node:child_process";
import { isNotNull } from "drizzle-orm";
import { getDb, openDatabase, type Db } from "@/lib/db/client";
import { harvestRuns, packageObservations } from "@/lib/db/schema";
import type { FakeUpstreams } from "@/scripts/fake-upstreams/server";
import { resetDb } from "../helpers/db";
import { startWorld } from "../helpers/harvest-world";

// `npm run harvest` on its own database, stopped by Ctrl-C or by a service manager's SIGTERM: Node's default for
// either ended the process mid-run, its harvest_runs row left "running" until an upkeep found the pid gone.
// The run ends as a run told to stop does: partial, the calls it cut short given back untouched.
let fake: FakeUpstreams;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "harvest-interrupted-"));
const onPostgres = process.env.TEST_DB === "postgres";

beforeAll(async () => {
  ({ fake } = await startWorld(60, 3));
  // on Postgres the job shares this worker's database; on PGlite it opens its own directory (read once it ended)
  if (onPostgres) await resetDb();
});
afterAll(async () => {
  await fake?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The job in its own process; `signal` is sent once the package look-ups are under way. */
async function interruptedHarvest(signal: NodeJS.Signals, databaseUrl: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, ...fake.env, DATA_DIR: dataDir, DATABASE_URL: databaseUrl, LOG_LEVEL: "silent" };
  delete env.TEST_DATABASE_URL;
  const npmBefore = fake.calls.npm ?? 0;
  const registryBefore = fake.registry.requests.length;
  fake.latencyMs = 0;
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/harvest.ts", "--registry", "full", "--sources", "registry,jspkg"], { env });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on("exit", (code, sig) => resolve({ code, signal: sig })));
  try {
    // the registry crawl answered at once; the packages slowly, so the signal comes while their calls are in flight
    await expect.poll(() => fake.registry.requests.length > registryBefore, { timeout: 90_000, interval: 10 }).toBe(true);
    fake.latencyMs = 500;
    await expect.poll(() => (fake.calls.npm ?? 0) - npmBefore, { timeout: 90_000, interval: 10 }).toBeGreaterThan(0);
    child.kill(signal);
    const end = await Promise.race([exited, new Promise<"hung">((r) => setTimeout(() => r("hung"), 60_000))]);
    return { end, stdout, stderr };
  } finally {
    fake.latencyMs = 0;
    child.kill("SIGKILL");
  }
}

async function lastRun(databaseUrl: string, read: (db: Db) => Promise<unknown>) {
  if (onPostgres) return read(await getDb());
  const handle = await openDatabase(databaseUrl);
  try {
    return await read(handle.db);
  } finally {
    await handle.close();
  }
}

describe("npm run harvest interrupted", () => {
  it.each([
    ["SIGTERM", 143],
    ["SIGINT", 130],
  ] as const)("by %s ends its run as partial, recorded, and exits %i", async (signal, exitCode) => {
    const databaseUrl = onPostgres ? process.env.DATABASE_URL! : `pglite:${path.join(dataDir, signal)}`;
    const { end, stdout, stderr } = await interruptedHarvest(signal, databaseUrl);
    expect(end, stderr).toEqual({ code: exitCode, signal: null });
    expect(stdout).toMatch(/^harvest run \d+: partial in /m);
    expect(stdout).toMatch(/^jspkg stopped: aborted$/m);
    const [run, failed] = (await lastRun(databaseUrl, async (db) => [
      (await db.select().from(harvestRuns)).at(-1),
      await db.select().from(packageObservations).where(isNotNull(packageObservations.lastError)),
    ])) as [typeof harvestRuns.$inferSelect, unknown[]];
    expect(run).toMatchObject({ trigger: "cli", status: "partial", stopped: { jspkg: "aborted" }, errors: [] });
    expect(run.finishedAt).not.toBeNull();
    // the look-ups the signal cut short are no upstream failure
    expect(failed).toEqual([]);
  }, 240_000);
});
