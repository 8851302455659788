import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Db } from "@/lib/db/client";
import { servers } from "@/lib/db/schema";
import { noteCatalogWrite } from "@/lib/cache/db-memo";
import { loadFactsCached, loadServerRecordsCached } from "@/lib/facts/record-cache";
import { loadServerRecords } from "@/lib/facts/load-facts";
import { FACTS_CACHE_ENTRIES } from "@/lib/config";
import { resetDb } from "../helpers/db";
import { listing, loadFixtureCatalog } from "../helpers/catalog-fixture";

let db: Db;
beforeEach(async () => {
  db = await resetDb();
  await loadFixtureCatalog(db);
});
afterEach(() => {
  vi.useRealTimers();
});

const retitle = (name: string, title: string) => db.update(servers).set({ title }).where(eq(servers.name, name));

/** The same database, its reads counted (the memo keys on this handle). */
function counting(): { db: Db; selects: () => number } {
  let selects = 0;
  const counted = { ...db, select: (...a: unknown[]) => (selects++, (db.select as (...x: unknown[]) => unknown)(...a)), selectDistinct: (...a: unknown[]) => (selects++, (db.selectDistinct as (...x: unknown[]) => unknown)(...a)) } as unknown as Db;
  return { db: counted, selects: () => selects };
}

describe("loadServerRecordsCached", () => {
  it("answers what loadServerRecords answers, for kept and newly loaded names alike", async () => {
    const names = ["io.github.acme/weather", "com.example/remote-only", "io.github.nobody/absent", "io.github.bob/no-repo"];
    await loadServerRecordsCached(db, names.slice(0, 1)); // one kept, the rest loaded in one batch
    const cached = await loadServerRecordsCached(db, names);
    const fresh = await loadServerRecords(db, names);
    expect([...cached.keys()].sort()).toEqual([...fresh.keys()].sort());
    for (const [name, record] of fresh) expect(cached.get(name)).toEqual(record);
    expect(cached.has("io.github.nobody/absent")).toBe(false);
    expect(await loadFactsCached(db, "io.github.nobody/absent")).toBeNull();
  });

  it("keeps a record until this process writes the catalog, then reads it again", async () => {
    const name = "io.github.acme/weather";
    expect((await loadServerRecordsCached(db, [name])).get(name)?.listing.title).toBe("Weather");
    await retitle(name, "Weather (renamed)"); // a write this process does not announce: the kept record stands
    expect((await loadServerRecordsCached(db, [name])).get(name)?.listing.title).toBe("Weather");
    noteCatalogWrite(db); // what ingest, harvest and refresh do after writing
    expect((await loadServerRecordsCached(db, [name])).get(name)?.listing.title).toBe("Weather (renamed)");
    // an ingest announces its own writes
    await loadFixtureCatalog(db);
    expect((await loadServerRecordsCached(db, [name])).get(name)?.listing.title).toBe("Weather");
  });

  it("keeps real records however many names not in the catalog are asked for, and shares one lookup per unknown name", async () => {
    const { db: counted, selects } = counting();
    const real = ["io.github.acme/weather", "com.example/remote-only", "io.github.bob/no-repo"];
    await loadServerRecordsCached(counted, real);
    // made-up names, more than the memo keeps, asked a thousand at a time as a caller of preflight or badges could
    const unknown = Array.from({ length: FACTS_CACHE_ENTRIES + 1 }, (_, i) => `io.github.nobody/made-up-${i}`);
    for (let i = 0; i < unknown.length; i += 1000) expect((await loadServerRecordsCached(counted, unknown.slice(i, i + 1000))).size).toBe(0);
    let before = selects();
    expect([...(await loadServerRecordsCached(counted, real)).keys()].sort()).toEqual([...real].sort());
    expect(selects() - before).toBe(0); // still kept, not read again

    before = selects();
    expect(await loadFactsCached(counted, "io.github.nobody/other")).toBeNull();
    const perLookup = selects() - before;
    expect(perLookup).toBeGreaterThan(0);
    before = selects();
    const absent = "io.github.nobody/absent";
    expect(await Promise.all([1, 2, 3].map(() => loadFactsCached(counted, absent)))).toEqual([null, null, null]);
    expect(selects() - before).toBe(perLookup); // a burst of one unknown name: one lookup
    expect(await loadFactsCached(counted, absent)).toBeNull();
    expect(selects() - before).toBe(perLookup); // and its answer is kept


    // (the ingest announces its write on the database's own handle)
    expect(await loadFactsCached(db, absent)).toBeNull();
    await loadFixtureCatalog(db, [listing({ name: absent, title: "Absent no more" })]); // an ingest in this process
    expect((await loadServerRecordsCached(db, [absent])).get(absent)?.listing.title).toBe("Absent no more");
  });

  it("keeps facts deep-frozen, so a stray write cannot change what other requests see", async () => {
    const facts = (await loadFactsCached(db, "io.github.acme/weather"))!;
    expect(Object.isFrozen(facts)).toBe(true);
    expect(Object.isFrozen(facts.server)).toBe(true);
    expect(() => {
      (facts.server as { name: string }).name = "io.github.acme/other";
    }).toThrow(TypeError);
    expect((await loadFactsCached(db, "io.github.acme/weather"))!.server.name).toBe("io.github.acme/weather");
  });

  it("shares one load among concurrent callers, and a failed load fails its callers", async () => {
    const name = "com.example/remote-only";
    const [a, b] = await Promise.all([loadServerRecordsCached(db, [name]), loadServerRecordsCached(db, [name, name])]);
    expect(a.get(name)).toBe(b.get(name)); // the same object: one load
    const broken = { ...db, select: () => { throw new Error("database down"); } } as unknown as Db;
    await expect(loadServerRecordsCached(broken, [name])).rejects.toThrow("database down");
    await expect(loadServerRecordsCached(broken, [name])).rejects.toThrow("database down"); // not kept
  });

  it("reloads stale records asked for at different moments together, in one batch, answering the stale ones meanwhile", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-03-10T12:00:00.000Z") });
    let selects = 0;
    // the same database, its reads counted (the memo keys on this handle)
    const counted = { ...db, select: (...a: unknown[]) => (selects++, (db.select as (...x: unknown[]) => unknown)(...a)), selectDistinct: (...a: unknown[]) => (selects++, (db.selectDistinct as (...x: unknown[]) => unknown)(...a)) } as unknown as Db;
    const names = ["io.github.acme/weather", "com.example/remote-only", "io.github.bob/no-repo"];
    await loadServerRecordsCached(counted, ["io.github.carol/old"]); // the brand list, kept for minutes
    selects = 0;
    const first = await loadServerRecordsCached(counted, names);
    const perBatch = selects;
    expect(perBatch).toBeGreaterThan(0);

    await retitle(names[0], "Weather (renamed)");
    vi.setSystemTime(new Date(Date.now() + 31_000)); // past every record's lifetime, within its stale window
    selects = 0;
    // asked one by one, in separate requests: each is answered its stale record at once
    for (const name of names) expect((await loadServerRecordsCached(counted, [name])).get(name)).toBe(first.get(name));
    expect(selects).toBe(0);
    await new Promise((r) => setTimeout(r, 1_300));
    expect(selects).toBe(perBatch); // one batch for the three, not three
    const reloaded = await loadServerRecordsCached(counted, names);
    expect(reloaded.get(names[0])?.listing.title).toBe("Weather (renamed)");
    for (const name of names) expect(reloaded.get(name)).not.toBe(first.get(name));
    expect(Object.isFrozen(reloaded.get(names[1])!.facts)).toBe(true);
  });
});
