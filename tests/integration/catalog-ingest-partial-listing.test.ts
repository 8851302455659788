import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { ingestDump } from "@/lib/catalog/ingest-dump";
import { parseDump } from "@/lib/catalog/read-dump";
import { normalizeRegistryEntry, RegistryEntryError } from "@/lib/catalog/normalize-registry-entry";
import type { Db } from "@/lib/db/client";
import { resetDb } from "../helpers/db";
import { listing } from "../helpers/catalog-fixture";
import { queryRows } from "../helpers/table-dump";
import { loadFactsMany } from "@/lib/facts/load-facts";
import { latestListingObservedAt } from "@/lib/reports/catalog-times";

const T0 = "2026-05-01T00:00:00.000Z";
const T1 = "2026-05-02T00:00:00.000Z";

const day0 = [
  listing({ name: "io.github.a/one" }, { updatedAt: T0, publishedAt: T0 }),
  listing({ name: "io.github.a/two" }, { updatedAt: T0, publishedAt: T0 }),
];

async function state(db: Db) {
  const servers = await queryRows<{ name: string; delisted: boolean; latest_version: string | null }>(
    db,
    sql`select name, delisted_at is not null as delisted, latest_version from servers order by name`,
  );
  const changes = await queryRows<{ kind: string; server_name: string }>(db, sql`select kind, server_name from changes order by id`);
  return { servers, changes };
}

describe("a complete listing the ingest could not read whole", () => {
  it("an empty dump delists nothing: it is a broken export, not proof that every server is gone", async () => {
    const db = await resetDb();
    await ingestDump(db, day0, "day0", new Date(T0));
    const before = await state(db);
    const result = await ingestDump(db, [], "empty", new Date(T1));
    expect(result.counts.serversDelisted).toBe(0);
    expect(await state(db)).toEqual(before);
  });

  it("a dump with a rejected row delists nothing: the unreadable row may be the one naming the server", async () => {
    const db = await resetDb();
    await ingestDump(db, day0, "day0", new Date(T0));
    const before = await state(db);
    const broken = { server: { ...day0[1].server, name: 42 }, _meta: day0[1]._meta };
    const result = await ingestDump(db, [day0[0], broken], "broken", new Date(T1));
    expect(result.rejects).toHaveLength(1);
    expect(result.counts.serversDelisted).toBe(0);
    expect(await state(db)).toEqual(before);
    // and a later complete listing that reads whole still delists as before
    const later = await ingestDump(db, [day0[0]], "later", new Date("2026-05-03T00:00:00.000Z"));
    expect(later.counts.serversDelisted).toBe(1);
  });

  it("a row holding a NUL character is rejected, not a failed listing with its sync left running", async () => {
    const db = await resetDb();
    const nul = listing({ name: "io.github.a/two", description: "evil\u0000" }, { updatedAt: T0, publishedAt: T0 });
    const result = await ingestDump(db, [day0[0], nul], "nul", new Date(T0));
    expect(result.rejects).toEqual([expect.stringMatching(/io\.github\.a\/two.*NUL character/)]);
    expect((await state(db)).servers.map((s) => s.name)).toEqual(["io.github.a/one"]);
    const syncs = await queryRows<{ status: string; error: string }>(db, sql`select status, error from registry_syncs`);
    expect(syncs).toEqual([{ status: "succeeded", error: expect.stringContaining("1 entries rejected") }]);
  });

  it("an incomplete listing does not date the listing of the servers it lacks (listing_observed_at, stats)", async () => {
    const db = await resetDb();
    await ingestDump(db, day0, "day0", new Date(T0));
    const broken = { server: { ...day0[1].server, name: 42 }, _meta: day0[1]._meta };
    const fresh = listing({ name: "io.github.a/three" }, { updatedAt: T1, publishedAt: T1 });
    await ingestDump(db, [fresh, broken], "broken", new Date("2026-05-03T00:00:00.000Z"));
    const facts = await loadFactsMany(db, ["io.github.a/one", "io.github.a/two", "io.github.a/three"]);
    // one and two were not in the later listing: seen last by day0; three no earlier than it was first seen
    expect(facts.get("io.github.a/one")!.server.listing_observed_at).toBe(T0);
    expect(facts.get("io.github.a/two")!.server.listing_observed_at).toBe(T0);
    expect(facts.get("io.github.a/three")!.server.listing_observed_at).toBe(T1);
    expect((await latestListingObservedAt(db))!.toISOString()).toBe(T0);
    // a whole listing read later dates them all again
    await ingestDump(db, [...day0, fresh], "whole", new Date("2026-05-04T00:00:00.000Z"));
    expect((await loadFactsMany(db, ["io.github.a/one"])).get("io.github.a/one")!.server.listing_observed_at).toBe("2026-05-04T00:00:00.000Z");
  });

  it("rejects an entry whose version is not a string rather than storing it as the empty version", () => {
    expect(() => normalizeRegistryEntry(listing({ name: "io.github.a/one", version: 1.5 }))).toThrow(RegistryEntryError);
    expect(() => normalizeRegistryEntry(listing({ name: "io.github.a/one", version: null }))).toThrow(/version/);
    // the real September 2025 rows with "version": "" stay listings, and the 2025-07 version_detail still reads
    expect(normalizeRegistryEntry(listing({ name: "io.github.a/one", version: "" })).version).toBe("");
    const old = { name: "io.github.a/one", version_detail: { version: "0.1.0" }, description: "x" };
    expect(normalizeRegistryEntry(old).version).toBe("0.1.0");
  });

  it("refuses a file that is one page of a paginated listing: as a dump it would delist every server on the other pages", () => {
    const page = (metadata: Record<string, unknown>) => Buffer.from(JSON.stringify({ servers: day0, metadata }));
    expect(() => parseDump(page({ nextCursor: "io.github.a/two:1.0.0", count: 2 }))).toThrow(/one page .*nextCursor/);
    expect(() => parseDump(page({ next_cursor: "io.github.a/two:1.0.0" }))).toThrow(/one page/);
    // the shared snapshots carry only a count, and the last page of a crawl has no cursor
    expect(parseDump(page({ count: 2 }))).toHaveLength(2);
    expect(parseDump(page({ nextCursor: "", count: 2 }))).toHaveLength(2);
  });

  it("an older complete dump re-imported after a newer one does not delist a server the newer one lists again", async () => {
    const db = await resetDb();
    const [a, b] = day0;
    await ingestDump(db, [a, b], "day0", new Date(T0));
    await ingestDump(db, [b], "day1: one is gone", new Date(T1));
    await ingestDump(db, [a, b], "day2: one is back", new Date("2026-05-03T00:00:00.000Z"));
    const before = await state(db);
    expect(before.servers.every((s) => !s.delisted)).toBe(true);
    const again = await ingestDump(db, [b], "day1 again", new Date(T1));
    expect(again.counts.serversDelisted).toBe(0);
    expect(await state(db)).toEqual(before); // no delisting, and no second "unlisted" change of day 1
  });
});
