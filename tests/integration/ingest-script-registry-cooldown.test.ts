import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { openDatabase, type Db } from "@/lib/db/client";
import { migrateDatabase } from "@/lib/db/migrate";
import { sourceCooldowns } from "@/lib/db/schema";
import { setCooldown } from "@/lib/harvest/cooldowns";
import { startFakeUpstreams, type FakeUpstreams } from "@/scripts/fake-upstreams/server";
import { runScript } from "../helpers/run-script";

// `npm run ingest` with no server holding the database crawls the registry itself. The server's path
// (/api/cron/ingest) keeps the registry's cooldown: while the registry has asked us to wait nothing is sent, and a
// rate limit starts a cooldown. The job run on its own database must do the same, or every cron run during a
// registry rate limit asks again and no later run (the harvest's, the route's) knows to wait.
describe("npm run ingest on its own database and the registry's cooldown", () => {
  let fake: FakeUpstreams;
  let dir: string;
  // the job opens the database itself: an embedded one is a directory (pglite:memory is this process's alone)
  const databaseUrl = () => (process.env.TEST_DB === "postgres" ? process.env.DATABASE_URL! : `pglite:${path.join(dir, "pglite")}`);
  async function onDb<T>(work: (db: Db) => Promise<T>): Promise<T> {
    const handle = await openDatabase(databaseUrl());
    try {
      await migrateDatabase(handle);
      return await work(handle.db);
    } finally {
      await handle.close();
    }
  }
  const ingest = () => {
    const env: NodeJS.ProcessEnv = { ...process.env, ...fake.env, DATA_DIR: dir, DATABASE_URL: databaseUrl(), LOG_LEVEL: "silent" };
    delete env.TEST_DATABASE_URL;
    return runScript(env, "ingest");
  };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "ingest-cooldown-"));
    fake = await startFakeUpstreams({});
    // a database of this worker's may hold a cooldown another file left
    await onDb((db) => db.delete(sourceCooldowns));
  });
  afterAll(async () => {
    await fake?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("a rate limit starts the registry's cooldown and fails the job with when to come back", async () => {
    fake.faults.add({ source: "registry", kind: "429", resetAfterSec: 3600, count: Infinity });
    const run = await ingest();
    fake.faults.clear();
    expect(run.status).toBe(1);
    const [cooldown] = await onDb((db) => db.select().from(sourceCooldowns).where(eq(sourceCooldowns.source, "registry")));
    expect(cooldown?.until.getTime()).toBeGreaterThan(Date.now() + 3_000_000);
    expect(run.stderr.trim()).toBe(`ingest failed: the registry is rate limiting us; no sync until ${cooldown.until.toISOString()}`);
  });

  // after the rate limit above: setCooldown replaces its cooldown
  it("sends nothing to the registry while it has asked us to wait, and says so", async () => {
    const until = new Date(Date.now() + 3_600_000);
    await onDb((db) => setCooldown(db, "registry", until, "registry HTTP 429", new Date()));
    const sent = fake.registry.requests.length;
    const run = await ingest();
    expect(run.status, run.stderr).toBe(0);
    expect(fake.registry.requests.length).toBe(sent);
    expect(run.stderr.trim()).toBe(`ingest skipped: the registry asked us to wait until ${until.toISOString()} (registry HTTP 429); nothing was sent`);
  });
});
