import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeRegistry } from "@/scripts/fake-upstreams/registry";
import { ingestFromRegistry } from "@/lib/catalog/ingest-from-registry";
import { readDumpFile } from "@/lib/catalog/read-dump";
import type { Db } from "@/lib/db/client";
import { resetDb } from "../helpers/db";
import { startHttpServer } from "../helpers/http-server";
import { hasSharedData, largestSnapshot, snapshotFiles } from "../helpers/shared-data";
import { count, dumpCatalog } from "../helpers/table-dump";
import { latestNames } from "../helpers/raw-snapshot";
import { listing } from "../helpers/catalog-fixture";
import { sql } from "drizzle-orm";

const rows = <T>(res: unknown): T[] => ((res as { rows?: T[] }).rows ?? (res as T[]));

describe.skipIf(!hasSharedData)("ingest from REGISTRY_URL through the list API", () => {
  const registry = new FakeRegistry();
  let server: Awaited<ReturnType<typeof startHttpServer>>;
  let db: Db;

  beforeAll(async () => {
    server = await startHttpServer((req, res) => {
      if (!registry.handle(req, res)) {
        res.writeHead(404).end();
      }
    });
    db = await resetDb();
  });
  afterAll(() => server?.close());

  it("walks every page of 100 by nextCursor and lists the latest names", async () => {
    const file = largestSnapshot()!;
    const entries = (await readDumpFile(file)) as Record<string, unknown>[];
    registry.load(entries);
    registry.requests.length = 0;
    const result = await ingestFromRegistry(db, { baseUrl: server.url, mode: "full" });
    expect(registry.requests.length).toBe(Math.floor(entries.length / 100) + 1);
    expect(registry.requests.every((r) => r.includes("limit=100"))).toBe(true);
    expect(registry.requests.slice(1).every((r) => r.includes("cursor="))).toBe(true);
    expect(result.counts.versionsInserted).toBe(entries.length);
    expect(await count(db, "select count(*) as n from servers where delisted_at is null")).toBe(latestNames(file).size);
  });

  it("an incremental run asks only for rows updated since the newest it holds and changes nothing when none are", async () => {
    const before = await dumpCatalog(db);
    registry.requests.length = 0;
    const result = await ingestFromRegistry(db, { baseUrl: server.url, mode: "incremental" });
    expect(registry.requests).toHaveLength(1);
    expect(registry.requests[0]).toMatch(/updated_since=/);
    expect(result.counts.entries).toBe(0);
    expect(await dumpCatalog(db)).toEqual(before);
  });

  it("an incremental run picks up a newer snapshot's changes without delisting anything", async () => {
    const files = snapshotFiles();
    const older = files[files.length - 2];
    const fresh = await resetDb();
    registry.load((await readDumpFile(older)) as Record<string, unknown>[]);
    await ingestFromRegistry(fresh, { baseUrl: server.url, mode: "full" });
    registry.load((await readDumpFile(files.at(-1)!)) as Record<string, unknown>[]);
    const r = await ingestFromRegistry(fresh, { baseUrl: server.url, mode: "incremental" });
    expect(r.counts.entries).toBeGreaterThan(0);
    expect(r.counts.serversDelisted).toBe(0);
    expect(await count(fresh, "select count(*) as n from servers where delisted_at is null")).toBe(latestNames(files.at(-1)!).size);
  });

  it("an incremental run does not skip a row updated on a page the last crawl had already read", async () => {
    const OFFICIAL = "io.modelcontextprotocol.registry/official";
    const old = "2025-11-01T00:00:00Z";
    const rows = Array.from({ length: 150 }, (_, i) =>
      listing({ name: `io.github.mid/s${String(i).padStart(3, "0")}`, version: "1.0.0" }, { updatedAt: old, publishedAt: old }),
    );
    const fresh = await resetDb();
    registry.load(rows);
    // while the full crawl reads page 2, s000 (page 1, already read) is deprecated, then s149 (page 2) changes
    const t1 = new Date(Date.now() + 1_000).toISOString();
    const t2 = new Date(Date.now() + 2_000).toISOString();
    registry.beforeAnswer = (served) => {
      if (served !== 1) return; // page 1 answered, page 2 not yet
      registry.update("io.github.mid/s000", (e) => Object.assign(e._meta[OFFICIAL], { status: "deprecated", updatedAt: t1 }));
      registry.update("io.github.mid/s149", (e) => (Object.assign(e.server, { title: "Changed" }), Object.assign(e._meta[OFFICIAL], { updatedAt: t2 })));
    };
    registry.requests.length = 0;
    try {
      await ingestFromRegistry(fresh, { baseUrl: server.url, mode: "full" });
    } finally {
      registry.beforeAnswer = undefined;
    }
    const status = async () => (await fresh.execute(sql`select registry_status from servers where name = 'io.github.mid/s000'`)) as unknown as { rows?: { registry_status: string }[] };
    const before = await status();
    expect((before.rows ?? (before as unknown as { registry_status: string }[]))[0].registry_status).toBe("active"); // the crawl read it before the change
    await ingestFromRegistry(fresh, { baseUrl: server.url, mode: "incremental" });
    const after = await status();
    expect((after.rows ?? (after as unknown as { registry_status: string }[]))[0].registry_status).toBe("deprecated");
  });

  it("a deleted row an incremental crawl reads does not relist a server a full crawl delisted (deleted rows are hidden from listings)", async () => {
    const OFFICIAL = "io.modelcontextprotocol.registry/official";
    const old = new Date(Date.now() - 3 * 3_600_000).toISOString();
    const fresh = await resetDb();
    registry.load([
      listing({ name: "io.github.spam/bad" }, { updatedAt: old, publishedAt: old }),
      listing({ name: "io.github.good/fine" }, { updatedAt: old, publishedAt: old }),
    ]);
    await ingestFromRegistry(fresh, { baseUrl: server.url, mode: "full" });
    // the registry deletes it; a full crawl (which hides deleted rows) runs before any incremental one
    const deletedAt = new Date(Date.now() - 3_600_000).toISOString();
    registry.update("io.github.spam/bad", (e) => Object.assign(e._meta[OFFICIAL], { status: "deleted", updatedAt: deletedAt, statusChangedAt: deletedAt }));
    await ingestFromRegistry(fresh, { baseUrl: server.url, mode: "full" });
    const state = async () =>
      rows<{ delisted: boolean; registry_status: string }>(await fresh.execute(sql`select delisted_at is not null as delisted, registry_status from servers where name = 'io.github.spam/bad'`));
    expect(await state()).toEqual([{ delisted: true, registry_status: "active" }]);
    // the incremental crawl includes the deleted row: its status is stored, and it stays unlisted
    const r = await ingestFromRegistry(fresh, { baseUrl: server.url, mode: "incremental" });
    expect(r.counts.entries).toBe(1);
    expect(await state()).toEqual([{ delisted: true, registry_status: "deleted" }]);
    const records = rows<{ before: unknown; after: unknown }>(
      await fresh.execute(sql`select before, after from changes where kind = 'registry_status' and server_name = 'io.github.spam/bad' order by id`),
    );
    expect(records).toEqual([
      { before: { status: "active", listed: true }, after: { status: "active", listed: false } },
      { before: { status: "active", listed: false }, after: { status: "deleted", listed: false } },
    ]);
    expect(await count(fresh, "select count(*) as n from servers where delisted_at is null")).toBe(1);
    // restored by the registry: listed again
    const back = new Date(Date.now() - 60_000).toISOString();
    registry.update("io.github.spam/bad", (e) => Object.assign(e._meta[OFFICIAL], { status: "active", updatedAt: back, statusChangedAt: back }));
    await ingestFromRegistry(fresh, { baseUrl: server.url, mode: "incremental" });
    expect(await state()).toEqual([{ delisted: false, registry_status: "active" }]);
  });

  it("records a failed sync and keeps the catalog when the registry cannot be reached", async () => {
    const before = await dumpCatalog(db);
    await expect(
      ingestFromRegistry(db, { baseUrl: "http://127.0.0.1:9", mode: "full", http: { retries: 0 } }),
    ).rejects.toThrow(/127\.0\.0\.1:9/);
    expect(await dumpCatalog(db)).toEqual(before);
    expect(await count(db, "select count(*) as n from registry_syncs where status = 'failed' and error is not null")).toBe(1);
  });
});
