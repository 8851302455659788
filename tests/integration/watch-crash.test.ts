import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn, type ChildProcess } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { asc } from "drizzle-orm";
import { openDatabase, type Db, type DbHandle } from "@/lib/db/client";
import { migrateDatabase } from "@/lib/db/migrate";
import { watchDeliveries } from "@/lib/db/schema";
import { createWatch } from "@/lib/services/create-watch";
import { resetDb } from "../helpers/db";
import { keyedAccount, loadFixtureCatalog } from "../helpers/catalog-fixture";
import { startHttpsReceiver, testTls } from "../helpers/https-receiver";
import { recordTestChanges } from "../helpers/watch-fixture";

// The delivery worker is a real process here (`scripts/deliver.ts --loop`, as
// `npm run deliver -- --loop` runs it), killed with SIGKILL mid-batch and
// started again. On PGlite the database is a directory the test and the two
// workers open in turn (never at once); on Postgres all three share it.

const SERVER = "io.github.acme/weather";
const WATCHES = 5;
const CHANGES = 40;
const TOTAL = WATCHES * CHANGES;

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
});

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 60_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function startWorker(env: Record<string, string>, log: string[]): ChildProcess {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/deliver.ts", "--loop"], {
    cwd: process.cwd(),
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d: Buffer) => log.push(d.toString()));
  child.stderr!.on("data", (d: Buffer) => log.push(d.toString()));
  children.push(child);
  return child;
}

const exited = (c: ChildProcess) => new Promise<void>((resolve) => (c.exitCode !== null || c.signalCode !== null ? resolve() : c.once("exit", () => resolve())));

describe("a delivery worker killed mid-batch", () => {
  it("loses nothing: after a restart every event reaches the receiver, exactly once per X-Catalog-Delivery, in order per watch", { timeout: 420_000 }, async () => {
    const tls = await testTls();
    const onPostgres = process.env.TEST_DB === "postgres";
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "watch-crash-"));
    const dbUrl = onPostgres ? process.env.DATABASE_URL! : `pglite:${path.join(dir, "pglite")}`;

    // PGlite: opened by one process at a time
    let handle: DbHandle | null = null;
    const open = async (): Promise<Db> => {
      if (onPostgres) return resetDbOnce();
      handle = await openDatabase(dbUrl);
      await migrateDatabase(handle, dbUrl);
      return handle.db;
    };
    let resetDone: Db | null = null;
    const resetDbOnce = async () => (resetDone ??= await resetDb());
    const close = async () => {
      if (handle) await handle.close();
      handle = null;
    };

    // each request takes a little while, so the kill lands mid-batch
    const receiver = await startHttpsReceiver((_req, res) => void setTimeout(() => res.writeHead(204).end(), 5));
    try {
      let db = await open();
      await loadFixtureCatalog(db);
      const account = await keyedAccount(db, { credits: 1000 });
      const caller = { tier: "registered" as const, accountId: account.accountId, keyId: account.keyId };
      const watchIds: string[] = [];
      for (let i = 0; i < WATCHES; i++) {
        const w = await createWatch(db, { server_name: SERVER, webhook_url: `${receiver.url}/${i}` }, { caller, charge: async () => ({}) });
        watchIds.push(w.watch.id);
      }
      for (let i = 0; i < CHANGES; i += 4) {
        await recordTestChanges(db, SERVER, [0, 1, 2, 3].map((k) => ({ kind: (i + k) % 2 ? "remote_up" : "remote_down", after: { seq: i + k } } as const)));
      }
      const queued = await db.select().from(watchDeliveries).orderBy(asc(watchDeliveries.id));
      expect(queued).toHaveLength(TOTAL);
      await close();

      const env = {
        DATABASE_URL: dbUrl,
        DATA_DIR: dir,
        OUTBOUND_ALLOW_HOSTS: "127.0.0.1",
        OUTBOUND_EXTRA_CA_FILE: tls.caFile,
        WEBHOOK_TIMEOUT_MS: "1000",
        DELIVERY_LEASE_MS: "6000",
        DELIVER_INTERVAL_MS: "100",
        DELIVERY_CONCURRENCY: "4",
        LOG_LEVEL: process.env.CRASH_TEST_LOG ?? "silent",
      };
      const log: string[] = [];
      const first = startWorker(env, log);
      await until("the first worker to deliver a part of the batch", () => receiver.requests.length >= TOTAL / 4, 180_000).catch((e) => {
        throw new Error(`${(e as Error).message}\n${log.join("")}`);
      });
      first.kill("SIGKILL");
      await exited(first);
      const beforeRestart = new Set(receiver.requests.map((r) => r.headers["x-catalog-delivery"])).size;
      expect(beforeRestart).toBeLessThan(TOTAL);

      const second = startWorker(env, log);
      await until("every event to arrive", () => new Set(receiver.requests.map((r) => r.headers["x-catalog-delivery"])).size >= TOTAL, 180_000).catch((e) => {
        throw new Error(`${(e as Error).message} (${new Set(receiver.requests.map((r) => r.headers["x-catalog-delivery"])).size}/${TOTAL})\n${log.join("")}`);
      });
      // let it record the last answers, then stop it politely
      if (onPostgres) {
        await until("every delivery to be recorded", async () => (await db.select().from(watchDeliveries)).every((d) => d.status === "delivered"));
      } else {
        await new Promise((r) => setTimeout(r, 1_000));
      }
      second.kill("SIGTERM");
      await exited(second);

      db = await open();
      const rows = await db.select().from(watchDeliveries).orderBy(asc(watchDeliveries.id));
      await close();
      expect(rows.map((r) => r.status)).toEqual(Array(TOTAL).fill("delivered"));

      // exactly once per delivery id, as a deduplicating receiver sees it
      const firstSeen: string[] = [];
      for (const r of receiver.requests) {
        const id = String(r.headers["x-catalog-delivery"]);
        if (!firstSeen.includes(id)) firstSeen.push(id);
      }
      expect(new Set(firstSeen)).toEqual(new Set(rows.map((r) => r.eventId)));
      // duplicates on the wire only for events that were in flight when the first worker died
      expect(receiver.requests.length - firstSeen.length).toBeLessThanOrEqual(4 * 50);

      // in order per watch: first arrivals follow the order the changes were recorded
      for (const watchId of watchIds) {
        const expected = rows.filter((r) => r.watchId === watchId).map((r) => r.eventId);
        const got = firstSeen.filter((id) => expected.includes(id));
        expect(got).toEqual(expected);
        const paths = receiver.requests.filter((r) => r.headers["x-catalog-watch-id"] === watchId).map((r) => r.url);
        expect(new Set(paths).size).toBe(1);
      }
    } finally {
      await close();
      await receiver.close();
    }
  });
});
