import { describe, expect, it, vi } from "vitest";
import { ingestEntries } from "@/lib/catalog/ingest-entries";
import { ingestDump } from "@/lib/catalog/ingest-dump";
import { loadServerRecords } from "@/lib/facts/load-facts";
import { readDumpFile } from "@/lib/catalog/read-dump";
import type { Db } from "@/lib/db/client";
import { resetDb } from "../helpers/db";
import { listing } from "../helpers/catalog-fixture";
import { hasSharedData, snapshotFiles } from "../helpers/shared-data";
import { dumpCatalog, queryRows } from "../helpers/table-dump";
import { sql } from "drizzle-orm";

const T0 = "2026-05-01T00:00:00.000Z"; // the first crawl begins
const T1 = "2026-05-01T00:05:00.000Z"; // registry changes while it reads
const T2 = "2026-05-01T00:10:00.000Z"; // the second crawl begins

const complete = (observedAt: string) => ({ source: "api" as const, origin: "test", complete: true, observedAt: new Date(observedAt) });

async function catalogState(db: Db) {
  const servers = await queryRows<{ name: string; delisted: boolean; latest_version: string | null; title: string | null; registry_status: string }>(
    db,
    sql`select name, delisted_at is not null as delisted, latest_version, title, registry_status from servers order by name`,
  );
  const latest = await queryRows<{ name: string; version: string }>(
    db,
    sql`select s.name, v.version from server_versions v join servers s on s.id = v.server_id where v.is_latest order by 1, 2`,
  );
  const changes = await queryRows<{ kind: string; server_name: string }>(db, sql`select kind, server_name from changes order by id`);
  return { servers, latest, changes };
}

describe("listings that reach the catalog out of order", () => {
  // What the registry said when the first crawl began (T0) and when the second one began (T2).
  const older = [
    listing({ name: "io.github.a/kept", version: "1.0.0", title: "Old title" }, { updatedAt: T0, publishedAt: T0 }),
    listing({ name: "io.github.a/removed", version: "1.0.0" }, { updatedAt: T0, publishedAt: T0 }),
    listing({ name: "io.github.a/stable", version: "1.0.0" }, { updatedAt: T0, publishedAt: T0 }),
  ];
  const newer = [
    listing({ name: "io.github.a/kept", version: "1.0.0", title: "Old title" }, { updatedAt: T1, publishedAt: T0, isLatest: false }),
    listing({ name: "io.github.a/kept", version: "2.0.0", title: "New title" }, { updatedAt: T1, publishedAt: T1 }),
    listing({ name: "io.github.a/added", version: "1.0.0" }, { updatedAt: T1, publishedAt: T1 }),
    listing({ name: "io.github.a/stable", version: "1.0.0" }, { updatedAt: T0, publishedAt: T0 }),
  ];

  it("a crawl that began first but commits last takes nothing back: no delisting, relisting, title or latest version", async () => {
    const inOrder = await resetDb();
    await ingestEntries(inOrder, older, complete(T0));
    await ingestEntries(inOrder, newer, complete(T2));
    const expected = await catalogState(inOrder);
    expect(expected.servers.find((s) => s.name === "io.github.a/removed")?.delisted).toBe(true);

    const reversed = await resetDb();
    await ingestEntries(reversed, newer, complete(T2));
    const before = await catalogState(reversed);
    const late = await ingestEntries(reversed, older, complete(T0));
    const after = await catalogState(reversed);

    // the late, older crawl adds only what the catalog never held, as the newer listing has it: "removed" was
    // gone when that listing was taken, so it arrives delisted
    expect(late.counts.serversDelisted).toBe(0);
    expect(late.counts.versionsUpdated).toBe(0);
    expect(after.servers).toEqual(expected.servers);
    expect(after.latest).toEqual(expected.latest);
    expect(after.servers.filter((s) => s.name !== "io.github.a/removed")).toEqual(before.servers);
    expect(after.changes.slice(before.changes.length)).toEqual([
      { kind: "server_new", server_name: "io.github.a/removed" },
      { kind: "registry_status", server_name: "io.github.a/removed" },
    ]);
    expect(after.servers.find((s) => s.name === "io.github.a/kept")).toMatchObject({ title: "New title", latest_version: "2.0.0", delisted: false });
    expect(after.servers.find((s) => s.name === "io.github.a/added")?.delisted).toBe(false);
    // and the listing a card and a preflight cite is still the newest observed, not the last written
    const facts = (await loadServerRecords(reversed, ["io.github.a/kept"])).get("io.github.a/kept")!.facts;
    expect(facts.server.listing_observed_at).toBe(T2);
  });

  it("a name met first in a backfilled listing is delisted as of the first later listing that lacked it, as in order", async () => {
    // the shared snapshots imported newest first dated the four servers gone since 2025-10-20 as delisted on 11-28
    const T3 = "2026-05-01T00:20:00.000Z";
    const when = async (db: Db) => ({
      delisted: await queryRows<{ delisted_at: Date | string }>(db, sql`select delisted_at from servers where name = 'io.github.a/removed'`),
      unlisted: await queryRows<{ observed_at: Date | string }>(
        db,
        sql`select observed_at from changes where server_name = 'io.github.a/removed' and kind = 'registry_status'`,
      ),
    });
    const inOrder = await resetDb();
    for (const [entries, at] of [[older, T0], [newer, T2], [newer, T3]] as const) await ingestEntries(inOrder, [...entries], complete(at));
    const expected = await when(inOrder);
    expect(new Date(expected.delisted[0].delisted_at).toISOString()).toBe(T2);

    const backfilled = await resetDb();
    for (const [entries, at] of [[newer, T3], [newer, T2], [older, T0]] as const) await ingestEntries(backfilled, [...entries], complete(at));
    expect(await when(backfilled)).toEqual(expected);
  });

  it("an older listing does not relist a server a newer one delisted, nor revert a deprecation", async () => {
    const db = await resetDb();
    await ingestEntries(db, older, complete(T0));
    const deprecated = [
      listing({ name: "io.github.a/kept", version: "1.0.0", title: "Old title" }, { updatedAt: T1, publishedAt: T0, status: "deprecated" }),
      listing({ name: "io.github.a/stable", version: "1.0.0" }, { updatedAt: T0, publishedAt: T0 }),
    ];
    await ingestEntries(db, deprecated, complete(T2));
    const before = await dumpCatalog(db);
    await ingestEntries(db, older, complete(T0));
    expect(await dumpCatalog(db)).toEqual(before);
  });

  it.skipIf(!hasSharedData)("importing an older registry dump after a newer one leaves the catalog as the newer one left it", { timeout: 300_000 }, async () => {
    const files = snapshotFiles();
    const [first, last] = [files.find((f) => f.includes("2025-11-01"))!, files.at(-1)!];
    const db = await resetDb();
    await ingestDump(db, await readDumpFile(first), "first");
    await ingestDump(db, await readDumpFile(last), "last");
    const listedBefore = await queryRows<{ name: string; latest_version: string | null }>(
      db,
      sql`select name, latest_version from servers where delisted_at is null order by name`,
    );
    const r = await ingestDump(db, await readDumpFile(first), "first again");
    expect(r.counts.serversDelisted).toBe(0);
    expect(r.counts.versionsUpdated).toBe(0);
    expect(r.counts.changes).toBe(0);
    expect(
      await queryRows<{ name: string; latest_version: string | null }>(db, sql`select name, latest_version from servers where delisted_at is null order by name`),
    ).toEqual(listedBefore);
  });
});

describe("a registry time from the future", () => {
  // One row of a dump claims an update in 2099 (a registry clock bug, a hand-edited export). Believed, it made the
  // dump "observed" in 2099, so every later listing counted as older: nothing was ever delisted, relisted or
  // moved to a newer version again, and that server's own later updates were all "older" than the one it held.
  const FUTURE = "2099-01-01T00:00:00.000Z";
  const DAY1 = "2026-05-02T00:00:00.000Z";
  const DAY2 = "2026-05-03T00:00:00.000Z";
  const first = [
    listing({ name: "io.github.a/kept", version: "1.0.0", title: "Old title" }, { updatedAt: T0, publishedAt: T0 }),
    listing({ name: "io.github.a/removed", version: "1.0.0" }, { updatedAt: T0, publishedAt: T0 }),
    listing({ name: "io.github.a/skewed", version: "1.0.0" }, { updatedAt: FUTURE, publishedAt: T0 }),
  ];
  const second = [
    listing({ name: "io.github.a/kept", version: "1.0.0", title: "New title" }, { updatedAt: DAY1, publishedAt: T0 }),
    listing({ name: "io.github.a/skewed", version: "1.0.0" }, { updatedAt: DAY1, publishedAt: T0, isLatest: false }),
    listing({ name: "io.github.a/skewed", version: "2.0.0" }, { updatedAt: DAY1, publishedAt: DAY1 }),
  ];

  it("is not believed: later dumps still delist, retitle and move the latest version", async () => {
    const db = await resetDb();
    vi.useFakeTimers({ now: new Date(DAY1), toFake: ["Date"] });
    try {
      await ingestDump(db, first, "first.json");
      vi.setSystemTime(new Date(DAY2));
      await ingestDump(db, second, "second.json");
    } finally {
      vi.useRealTimers();
    }
    const state = await catalogState(db);
    expect(state.servers).toEqual([
      expect.objectContaining({ name: "io.github.a/kept", delisted: false, title: "New title" }),
      expect.objectContaining({ name: "io.github.a/removed", delisted: true }),
      expect.objectContaining({ name: "io.github.a/skewed", delisted: false, latest_version: "2.0.0" }),
    ]);
    // the far-future time is held as unknown, not as a time
    const [row] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from servers where registry_updated_at > now() + interval '1 day'`);
    expect(row.n).toBe(0);
  });

  // docs/catalog.md: a registry time more than a day after the listing was read is unknown, "for a dump: after the
  // import". A dump given an earlier observation time (--observed-at) lost every publication and update time more
  // than a day after that, all of them real.
  it("judges a dump's registry times against its import, not against an earlier --observed-at", async () => {
    const db = await resetDb();
    vi.useFakeTimers({ now: new Date(DAY2), toFake: ["Date"] });
    try {
      await ingestDump(db, second, "second.json", new Date("2026-04-01T00:00:00.000Z"));
    } finally {
      vi.useRealTimers();
    }
    const versions = await queryRows<{ version: string; published_at: Date | string | null; registry_updated_at: Date | string | null }>(
      db,
      sql`select v.version, v.published_at, v.registry_updated_at from server_versions v join servers s on s.id = v.server_id where s.name = 'io.github.a/skewed' order by version`,
    );
    const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
    expect(versions.map((v) => [v.version, iso(v.published_at), iso(v.registry_updated_at)])).toEqual([
      ["1.0.0", T0, DAY1],
      ["2.0.0", DAY1, DAY1],
    ]);
  });
});
