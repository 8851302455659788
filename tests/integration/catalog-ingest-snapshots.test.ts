import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { readDumpFile } from "@/lib/catalog/read-dump";
import { ingestDump } from "@/lib/catalog/ingest-dump";
import type { Db } from "@/lib/db/client";
import { resetDb } from "../helpers/db";
import { hasSharedData, snapshotFiles } from "../helpers/shared-data";
import { count, dumpCatalog } from "../helpers/table-dump";
import { latestNames, readRawSnapshot } from "../helpers/raw-snapshot";

describe.skipIf(!hasSharedData)("ingesting every shared registry snapshot in date order", () => {
  let db: Db;
  beforeAll(async () => {
    db = await resetDb();
  });

  // 41 snapshots, each ingested twice and compared table by table: about a minute on embedded PGlite when the
  // two cores are shared with the other test worker, so it gets its own time limit.
  it("lists exactly the dump's latest names after each day, and a second ingest changes no row", { timeout: 300_000 }, async () => {
    const files = snapshotFiles();
    expect(files.length).toBeGreaterThan(1);
    for (const file of files) {
      const entries = await readDumpFile(file);
      await ingestDump(db, entries, file);
      const listed = await count(db, "select count(*) as n from servers where delisted_at is null");
      expect(listed, path.basename(file)).toBe(latestNames(file).size);

      const before = await dumpCatalog(db);
      const again = await ingestDump(db, entries, file);
      expect(again.counts.versionsInserted + again.counts.versionsUpdated + again.counts.serversInserted + again.counts.serversUpdated + again.counts.serversDelisted).toBe(0);
      expect(await dumpCatalog(db), `${path.basename(file)} second ingest`).toEqual(before);
    }
  });

  it("keeps every version ever listed and knows which one is latest", async () => {
    const last = snapshotFiles().at(-1)!;
    const raw = readRawSnapshot(last);
    const versions = await count(db, "select count(*) as n from server_versions");
    expect(versions).toBeGreaterThanOrEqual(raw.length);
    // each listed server points at the version the last dump marks latest
    const latest = await db.execute(
      "select s.name, s.latest_version, v.version from servers s join server_versions v on v.id = s.latest_version_id where s.delisted_at is null" as never,
    );
    const rows = ((latest as { rows?: any[] }).rows ?? (latest as any[])) as { name: string; latest_version: string; version: string }[];
    const expected = new Map(raw.filter((e) => e.isLatest).map((e) => [e.name, e.version]));
    expect(rows.length).toBe(expected.size);
    for (const r of rows) {
      expect(r.version).toBe(expected.get(r.name));
      expect(r.latest_version).toBe(expected.get(r.name));
    }
    const flagged = await count(db, "select count(*) as n from server_versions v join servers s on s.id = v.server_id where v.is_latest and s.delisted_at is null");
    expect(flagged).toBe(expected.size);
  });

  it("records first_seen_at no later than the first publication of any version", async () => {
    const bad = await count(
      db,
      "select count(*) as n from servers s where s.first_seen_at > (select min(v.published_at) from server_versions v where v.server_id = s.id)",
    );
    expect(bad).toBe(0);
    const missing = await count(db, "select count(*) as n from servers where first_seen_at is null");
    expect(missing).toBe(0);
  });
});
