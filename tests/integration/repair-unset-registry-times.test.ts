import fs from "node:fs";
import path from "node:path";
import { sql, type SQL } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { changes, osvAdvisories, repositories, repositoryObservations, servers, serverVersions } from "@/lib/db/schema";
import { ingestEntries } from "@/lib/catalog/ingest-entries";
import { listRecentServers } from "@/lib/services/list-recent-servers";
import { resetDb } from "../helpers/db";

/** Rows of a raw query, as node-postgres and PGlite each return them. */
async function rowsFrom<T>(db: Db, query: SQL): Promise<T[]> {
  const r = await db.execute(query);
  return (r as unknown as { rows?: T[] }).rows ?? (r as unknown as T[]);
}

// Migration 0018 repairs, once, what was stored before upstream times were read by parseUpstreamTime: Go's zero
// time (0001-01-01T00:00:00Z, the registry's "unset") was stored as a time in year 1, and a server's first_seen_at,
// the earliest of its versions' publications, became year 1 with it. The test database has every migration
// already; rows stored the old way are written here and the migration's statements run again over them.
describe("migration 0018: registry times before year 1000 become unknown, and first_seen_at is recomputed", () => {
  let db: Db;
  const file = path.join(process.cwd(), "drizzle/0018_repair_unset_registry_times.sql");
  const runMigration = async () => {
    for (const statement of fs.readFileSync(file, "utf8").split("--> statement-breakpoint")) await db.execute(sql.raw(statement));
  };
  // Written and read as SQL: drizzle reads Postgres's "0001-01-01 00:00:00+00" back with `new Date`, as 2001.
  const time = (t: string) => sql`${t}::timestamptz`;
  const ZERO = time("0001-01-01T00:00:00Z");
  const text = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;
  const rowsOf = <T>(query: SQL) => rowsFrom<T>(db, query);

  const addServer = async (name: string, firstSeenAt: SQL, createdAt: string, more: Partial<Record<"publishedAt" | "registryUpdatedAt" | "statusChangedAt", SQL>> = {}) => {
    const [row] = await db
      .insert(servers)
      .values({ name, namespace: name.split("/")[0], serverPart: name.split("/")[1], firstSeenAt, createdAt: new Date(createdAt), ...more })
      .returning({ id: servers.id });
    return row.id;
  };
  const addVersion = (serverId: number, version: string, publishedAt: SQL | null, more: Partial<Record<"registryUpdatedAt" | "statusChangedAt", SQL>> = {}) =>
    db.insert(serverVersions).values({ serverId, version, isLatest: false, publishedAt, document: {}, contentHash: `${serverId}-${version}`, ...more });
  const addServerNew = (serverId: number, serverName: string, observedAt: string) =>
    db.insert(changes).values({ kind: "server_new", serverId, serverName, observedAt: new Date(observedAt), before: null, after: {} });

  beforeAll(async () => {
    db = await resetDb();
  });

  it("nulls a year-1 time in every registry time column of servers and versions, and keeps real times", async () => {
    const id = await addServer("io.github.t/columns", time("2025-09-01T00:00:00Z"), "2025-09-01T00:00:00Z", {
      publishedAt: ZERO,
      registryUpdatedAt: time("0999-12-31T23:59:59Z"),
      statusChangedAt: ZERO,
    });
    await addVersion(id, "1.0.0", ZERO, { registryUpdatedAt: ZERO, statusChangedAt: ZERO });
    await addVersion(id, "2.0.0", time("1000-01-01T00:00:00Z"), { registryUpdatedAt: time("1969-07-20T20:17:40Z") });
    await runMigration();
    const [server] = await rowsOf<Record<string, string | null>>(
      sql.raw(`select ${text("published_at")} p, ${text("registry_updated_at")} u, ${text("status_changed_at")} s, ${text("first_seen_at")} f from servers where id = ${id}`),
    );
    expect(server).toEqual({ p: null, u: null, s: null, f: "2025-09-01T00:00:00Z" });
    const versions = await rowsOf<Record<string, string | null>>(
      sql.raw(`select version v, ${text("published_at")} p, ${text("registry_updated_at")} u, ${text("status_changed_at")} s from server_versions where server_id = ${id} order by version`),
    );
    expect(versions).toEqual([
      { v: "1.0.0", p: null, u: null, s: null },
      { v: "2.0.0", p: "1000-01-01T00:00:00Z", u: "1969-07-20T20:17:40Z", s: null },
    ]);
  });

  it("recomputes a year-1 first_seen_at as ingest does: the earliest real publication or the first listing's observation", async () => {
    // an unset version beside a published one: the published one, before the listing that first showed it
    const published = await addServer("io.github.t/published", ZERO, "2025-12-01T00:00:00Z");
    await addVersion(published, "0.1.0", ZERO);
    await addVersion(published, "0.2.0", time("2025-10-01T08:00:00Z"));
    await addVersion(published, "0.3.0", time("2025-10-20T08:00:00Z"));
    await addServerNew(published, "io.github.t/published", "2025-11-01T00:00:00Z");
    // no version with a real publication: first seen when the first listing that had it was observed
    const unset = await addServer("io.github.t/unset", ZERO, "2025-12-01T00:00:00Z");
    await addVersion(unset, "1.0.0", ZERO);
    await addVersion(unset, "1.0.1", null);
    await addServerNew(unset, "io.github.t/unset", "2025-11-02T00:00:00Z");
    // published within the registry's clock skew after our observation: ingest took the earlier of the two
    const skewed = await addServer("io.github.t/skewed", ZERO, "2025-12-01T00:00:00Z");
    await addVersion(skewed, "1.0.0", ZERO);
    await addVersion(skewed, "1.1.0", time("2025-11-03T12:00:00Z"));
    await addServerNew(skewed, "io.github.t/skewed", "2025-11-03T00:00:00Z");
    // stored before listings wrote change records: when the catalog stored it, the latest it can have been seen
    const unrecorded = await addServer("io.github.t/unrecorded", ZERO, "2025-11-04T00:00:00Z");
    await addVersion(unrecorded, "1.0.0", ZERO);
    // a real first_seen_at never moves, whatever its versions say
    const real = await addServer("io.github.t/real", time("2025-08-01T00:00:00Z"), "2025-12-01T00:00:00Z");
    await addVersion(real, "1.0.0", ZERO);
    await addVersion(real, "1.1.0", time("2025-09-01T00:00:00Z"));
    await addServerNew(real, "io.github.t/real", "2025-08-15T00:00:00Z");

    await runMigration();
    const rows = await rowsOf<{ name: string; f: string }>(
      sql.raw(`select name, ${text("first_seen_at")} f from servers where name like 'io.github.t/%' and name <> 'io.github.t/columns' order by name`),
    );
    expect(rows).toEqual([
      { name: "io.github.t/published", f: "2025-10-01T08:00:00Z" },
      { name: "io.github.t/real", f: "2025-08-01T00:00:00Z" },
      { name: "io.github.t/skewed", f: "2025-11-03T00:00:00Z" },
      { name: "io.github.t/unrecorded", f: "2025-11-04T00:00:00Z" },
      { name: "io.github.t/unset", f: "2025-11-02T00:00:00Z" },
    ]);
    // /v1/recent orders them by when they appeared, no longer with the repaired ones last in year 1
    const recent = await listRecentServers(db, { limit: 10 }, { now: new Date("2026-03-01T00:00:00Z") });
    expect(recent.servers.map((c) => c.server_name)).toEqual([
      "io.github.t/unrecorded",
      "io.github.t/skewed",
      "io.github.t/unset",
      "io.github.t/published",
      "io.github.t/columns",
      "io.github.t/real",
    ]);
  });

  it("nulls a year-1 push, with its repository's ETag, and an advisory's year-1 modified and withdrawn times", async () => {
    const at = new Date("2026-03-01T00:00:00Z");
    const [zero, kept] = await db
      .insert(repositories)
      .values([
        { url: "https://github.com/a/zero", host: "github.com" },
        { url: "https://github.com/a/kept", host: "github.com" },
      ])
      .returning();
    await db.insert(repositoryObservations).values([
      { repositoryId: zero.id, exists: true, pushedAt: ZERO, stars: 3, etag: '"zero"', observedAt: at, attemptedAt: at },
      { repositoryId: kept.id, exists: true, pushedAt: new Date("1999-01-01T00:00:00Z"), stars: 4, etag: '"kept"', observedAt: at, attemptedAt: at },
    ]);
    await db.insert(osvAdvisories).values([
      { id: "GHSA-zero-modified", modified: ZERO, summary: "s", fetchedAt: at },
      { id: "GHSA-zero-withdrawn", modified: new Date("2026-02-01T00:00:00Z"), withdrawn: ZERO, fetchedAt: at },
    ]);
    await runMigration();
    const repos = await rowsOf<Record<string, string | number | null>>(
      sql.raw(`select r.url, ${text("o.pushed_at")} p, o.etag e, o.stars s from repository_observations o join repositories r on r.id = o.repository_id order by r.url`),
    );
    expect(repos).toEqual([
      { url: "https://github.com/a/kept", p: "1999-01-01T00:00:00Z", e: '"kept"', s: 4 },
      { url: "https://github.com/a/zero", p: null, e: null, s: 3 },
    ]);
    const advisories = await rowsOf<Record<string, string | null>>(sql.raw(`select id, ${text("modified")} m, ${text("withdrawn")} w from osv_advisories order by id`));
    expect(advisories).toEqual([
      { id: "GHSA-zero-modified", m: null, w: null },
      { id: "GHSA-zero-withdrawn", m: "2026-02-01T00:00:00Z", w: null },
    ]);
  });
});

// What the migration repairs cannot be written again: a listing read today holds Go's zero time as unknown.
describe("ingest of registry times that are Go's zero time", () => {
  const entry = (version: string, isLatest: boolean, t: string) => ({
    server: { name: "io.github.t/zero-later", version, description: "d" },
    _meta: { "io.modelcontextprotocol.registry/official": { status: "active", isLatest, publishedAt: t, updatedAt: t, statusChangedAt: t } },
  });

  it("a held server listed again with unset times keeps its first_seen_at, and no registry column holds year 1", async () => {
    const db = await resetDb();
    const opts = (observedAt: string) => ({ source: "file" as const, origin: "test", complete: true, observedAt: new Date(observedAt) });
    await ingestEntries(db, [entry("1.0.0", true, "2026-01-10T00:00:00Z")], opts("2026-01-15T00:00:00Z"));
    await ingestEntries(db, [entry("1.0.0", false, "2026-01-10T00:00:00Z"), entry("2.0.0", true, "0001-01-01T00:00:00Z")], opts("2026-02-01T00:00:00Z"));
    const [row] = await rowsFrom(
      db,
      sql.raw(`select to_char(first_seen_at at time zone 'UTC', 'YYYY-MM-DD') f,
        (select count(*) from server_versions v where v.server_id = s.id and least(v.published_at, v.registry_updated_at, v.status_changed_at) < '1000-01-01Z')::int old_versions,
        least(s.published_at, s.registry_updated_at, s.status_changed_at) is null no_server_times
        from servers s where name = 'io.github.t/zero-later'`),
    );
    expect(row).toEqual({ f: "2026-01-10", old_versions: 0, no_server_times: true });
  });
});
