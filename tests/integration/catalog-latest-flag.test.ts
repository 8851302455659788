import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { ingestEntries } from "@/lib/catalog/ingest-entries";
import type { Db } from "@/lib/db/client";
import { resetDb } from "../helpers/db";
import { listing } from "../helpers/catalog-fixture";
import { queryRows } from "../helpers/table-dump";

const T0 = "2026-05-01T00:00:00.000Z";
const T1 = "2026-05-01T00:05:00.000Z"; // v2 is published while a full crawl reads its pages
const T2 = "2026-05-01T00:10:00.000Z";
const crawl = (observedAt: string, complete: boolean) => ({ source: "api" as const, origin: "test", complete, observedAt: new Date(observedAt) });
const v1 = (isLatest: boolean, updatedAt = T0) => listing({ name: "io.github.a/x", version: "1.0.0" }, { publishedAt: T0, updatedAt, isLatest });
const v2 = () => listing({ name: "io.github.a/x", version: "2.0.0" }, { publishedAt: T1, updatedAt: T1, isLatest: true });

/** The server's latest version by each of the catalog's three records of it. */
async function latest(db: Db) {
  const [row] = await queryRows<{ latest_version: string | null; pointed: string | null; flagged: string | null }>(
    db,
    sql`select s.latest_version,
               (select v.version from server_versions v where v.id = s.latest_version_id) as pointed,
               (select string_agg(v.version, ',' order by v.version) from server_versions v where v.server_id = s.id and v.is_latest) as flagged
          from servers s where s.name = 'io.github.a/x'`,
  );
  return row;
}

describe("the latest version of a server", () => {
  // A version published while a full crawl reads its pages (rows come by name and version, 100 a page, and the old
  // latest's isLatest flips without a new updatedAt) is read latest on the next page while the page before still
  // called the old version latest: the listing holds two latest rows for one server.
  it("a crawl that read two latest rows, and the incremental crawl after it, leave the newer one latest everywhere", async () => {
    const db = await resetDb();
    await ingestEntries(db, [v1(true)], crawl(T0, true));
    await ingestEntries(db, [v1(true), v2()], crawl("2026-05-01T00:04:00.000Z", true));
    expect(await latest(db)).toEqual({ latest_version: "2.0.0", pointed: "2.0.0", flagged: "2.0.0" });
    // the next incremental crawl re-reads 2.0.0 (updated after the last crawl began); 1.0.0's row did not change
    await ingestEntries(db, [v2()], crawl(T2, false));
    expect(await latest(db)).toEqual({ latest_version: "2.0.0", pointed: "2.0.0", flagged: "2.0.0" });
  });

  it("of two rows a listing calls latest, is the one the registry updated last", async () => {
    const db = await resetDb();
    await ingestEntries(db, [v1(true), v2()], crawl(T2, true));
    expect(await latest(db)).toEqual({ latest_version: "2.0.0", pointed: "2.0.0", flagged: "2.0.0" });
  });
});
