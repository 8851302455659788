import { describe, expect, it } from "vitest";
import { gzipSync } from "node:zlib";
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

  it("says what is wrong with a file that is empty, cut short or corrupt, in words that name it", () => {
    const dump = Buffer.from(JSON.stringify({ servers: day0 }));
    const gz = gzipSync(dump);
    expect(() => parseDump(Buffer.alloc(0))).toThrow(/^the file is empty$/);
    expect(() => parseDump(gzipSync(Buffer.alloc(0)))).toThrow(/^the file is empty$/);
    // zlib alone says "unexpected end of file"
    expect(() => parseDump(gz.subarray(0, gz.length - 12))).toThrow(/^the gzip file is cut short or corrupt \(unexpected end of file\)/);
    expect(() => parseDump(Buffer.concat([gz.subarray(0, 10), Buffer.from("not deflate data at all")]))).toThrow(/^the gzip file is cut short or corrupt/);
    expect(() => parseDump(dump.subarray(0, dump.length - 5))).toThrow(/^the file is not valid JSON \(/);
    expect(parseDump(gz)).toHaveLength(2);
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

// Postgres refuses U+0000 in text and jsonb, and a lone surrogate in jsonb (JSON.parse reads `\ud800`,
// JSON.stringify writes it back): one in one entry failed the write of the whole listing, every time.
describe("a listing holding text Postgres cannot store", () => {
  const escaped = (s: string) => s.replace(/\u0000/g, "\\u0000").replace(/\ud800/g, "\\ud800");
  const BAD = "a\u0000b\ud800c";
  const STORED = "a\ufffdb\ufffdc";

  it("is written whole, the text stored with U+FFFD in its place, and read again changes nothing", async () => {
    const db = await resetDb();
    const odd = listing({
      name: "io.github.a/odd",
      title: BAD,
      description: BAD,
      websiteUrl: `https://example.com/${BAD}`,
      packages: [{ registryType: "npm", identifier: `pkg-${BAD}`, version: `1.0.0-${BAD}`, transport: { type: "stdio" } }],
      remotes: [{ type: "streamable-http", url: `https://mcp.example.com/${BAD}` }],
      _meta: { [`com.example/${BAD}`]: { note: BAD } },
    }, { updatedAt: T0, publishedAt: T0, statusMessage: BAD });
    // as the registry's JSON spells them: escapes that JSON.parse reads into the characters
    const file = Buffer.from(escaped(JSON.stringify({ servers: [...day0, odd], metadata: { count: 3 } })));
    const first = await ingestDump(db, parseDump(file), "odd", new Date(T0));
    expect(first.rejects).toEqual([]);
    expect(first.counts.versionsInserted).toBe(3);
    const [row] = await queryRows<Record<string, unknown>>(
      db,
      sql`select s.title, s.description, s.website_url, s.status_message, p.identifier, p.version, r.url, v.document
          from servers s join server_versions v on v.id = s.latest_version_id
          join server_packages p on p.version_id = v.id join server_remotes r on r.version_id = v.id
          where s.name = 'io.github.a/odd'`,
    );
    expect(row).toMatchObject({ title: STORED, description: STORED, website_url: `https://example.com/${STORED}`, status_message: STORED });
    expect(row).toMatchObject({ identifier: `pkg-${STORED}`, version: `1.0.0-${STORED}`, url: `https://mcp.example.com/${STORED}` });
    expect(row.document).toMatchObject({ title: STORED, _meta: { [`com.example/${STORED}`]: { note: STORED } } });
    const before = await state(db);
    const again = await ingestDump(db, parseDump(file), "odd again", new Date(T0));
    expect(again.counts).toMatchObject({ versionsUnchanged: 3, versionsInserted: 0, versionsUpdated: 0, serversUpdated: 0, changes: 0 });
    expect(await state(db)).toEqual(before);
  });

  it("an entry with a value too long to index is refused, and the rest of the listing is written", async () => {
    // a btree index entry holds at most 2,704 bytes, a full-text vector 1 MB: one such value failed the whole write
    const db = await resetDb();
    let seed = 7;
    // characters that do not compress: an index entry is compressed before its size is checked
    const noise = (n: number) => Array.from({ length: n }, () => ((seed = (seed * 48271) % 2147483647) % 36).toString(36)).join("");
    // [what the refusal names, the entry]; a name is refused past 300 characters already (no API input takes more)
    const long: [string, Record<string, unknown>][] = [
      ["longer than 300 characters", { name: `io.github.a/${noise(4000)}` }],
      ["version", { name: "io.github.a/v", version: noise(4000) }],
      ["package 1 identifier", { name: "io.github.a/p", packages: [{ registryType: "npm", identifier: noise(4000) }] }],
      // a registry type the catalog does not know is indexed as the package's ecosystem, beside its identifier
      ["package 1 registry type", { name: "io.github.a/t", packages: [{ registryType: noise(4000), identifier: "x" }] }],
      ["remote 1 URL", { name: "io.github.a/r", remotes: [{ type: "streamable-http", url: `https://x.example/${noise(4000)}` }] }],
      ["repository URL", { name: "io.github.a/g", repository: { url: `https://github.com/a/${noise(4000)}`, source: "github" } }],
      ["description", { name: "io.github.a/d", description: Array.from({ length: 200_000 }, () => noise(6)).join(" ") }],
    ];
    for (const [what, server] of long) {
      const result = await ingestDump(db, [...day0, listing(server, { updatedAt: T0, publishedAt: T0 })], what, new Date(T0));
      expect(result.rejects, what).toEqual([expect.stringContaining(what.startsWith("longer") ? what : `${what} is over`)]);
      expect((await state(db)).servers.map((s) => s.name), what).toEqual(["io.github.a/one", "io.github.a/two"]);
    }
  });

  it("a name holding one is refused, and the rest of the listing is written", async () => {
    const db = await resetDb();
    for (const name of ["io.github.a/x\u0000y", "io.github.a/x\ud800y", "io.github.a/x\ufffdy"]) {
      const file = Buffer.from(escaped(JSON.stringify({ servers: [...day0, listing({ name })] })));
      const result = await ingestDump(db, parseDump(file), "odd name", new Date(T0));
      expect(result.rejects, name).toEqual([expect.stringMatching(/whitespace or control characters/)]);
      expect((await state(db)).servers.map((s) => s.name)).toEqual(["io.github.a/one", "io.github.a/two"]);
    }
  });
});
