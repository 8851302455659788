import fs from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { osvAdvisories, repositories, repositoryObservations } from "@/lib/db/schema";
import { resetDb } from "../helpers/db";

// Migration 0017 applies, once, the rule the harvester now follows for GitHub and OSV times (a time more than a
// day after our reading is unknown) to rows harvested before it. The test database has every migration already;
// rows stored the old way are written here and the migration's statements run again over them.
describe("migration 0017: stored upstream times from the future become unknown", () => {
  let db: Db;
  const file = path.join(process.cwd(), "drizzle/0017_repair_future_upstream_times.sql");
  const runMigration = async () => {
    for (const statement of fs.readFileSync(file, "utf8").split("--> statement-breakpoint")) await db.execute(sql.raw(statement));
  };
  const at = new Date("2026-03-01T00:00:00Z");
  const hoursLater = (h: number) => new Date(at.getTime() + h * 3600_000);

  beforeAll(async () => {
    db = await resetDb();
  });

  it("clears a repository's future last push and its ETag, and keeps every believable value", async () => {
    const pushes: [string, Date | null][] = [
      ["https://github.com/a/year-ahead", hoursLater(365 * 24)],
      ["https://github.com/a/day-and-a-minute", hoursLater(24 + 1 / 60)],
      ["https://github.com/a/a-day", hoursLater(24)],
      ["https://github.com/a/yesterday", hoursLater(-24)],
      ["https://github.com/a/never-pushed", null],
    ];
    for (const [url, pushedAt] of pushes) {
      const [repo] = await db.insert(repositories).values({ url, host: "github.com" }).returning();
      await db.insert(repositoryObservations).values({ repositoryId: repo.id, exists: true, pushedAt, stars: 7, etag: `"${url}"`, observedAt: at, attemptedAt: at });
    }
    await runMigration();
    const rows = await db
      .select({ url: repositories.url, pushedAt: repositoryObservations.pushedAt, etag: repositoryObservations.etag, stars: repositoryObservations.stars })
      .from(repositoryObservations)
      .innerJoin(repositories, eq(repositories.id, repositoryObservations.repositoryId));
    const byUrl = new Map(rows.map((r) => [r.url, r]));
    expect(byUrl.get("https://github.com/a/year-ahead")).toMatchObject({ pushedAt: null, etag: null, stars: 7 });
    expect(byUrl.get("https://github.com/a/day-and-a-minute")).toMatchObject({ pushedAt: null, etag: null });
    expect(byUrl.get("https://github.com/a/a-day")?.pushedAt?.toISOString()).toBe(hoursLater(24).toISOString());
    expect(byUrl.get("https://github.com/a/a-day")?.etag).toBe('"https://github.com/a/a-day"');
    expect(byUrl.get("https://github.com/a/yesterday")?.pushedAt?.toISOString()).toBe(hoursLater(-24).toISOString());
    expect(byUrl.get("https://github.com/a/never-pushed")).toMatchObject({ pushedAt: null, etag: '"https://github.com/a/never-pushed"' });
  });

  it("clears an advisory's future modified and withdrawn times, each on its own", async () => {
    await db.insert(osvAdvisories).values([
      { id: "GHSA-modified-ahead", modified: hoursLater(365 * 24), summary: "s", fetchedAt: at },
      { id: "GHSA-withdrawn-ahead", modified: hoursLater(-48), withdrawn: hoursLater(30 * 24), fetchedAt: at },
      { id: "GHSA-withdrawn-before", modified: hoursLater(-48), withdrawn: hoursLater(-1), fetchedAt: at },
    ]);
    await runMigration();
    const rows = new Map((await db.select().from(osvAdvisories)).map((r) => [r.id, r]));
    expect(rows.get("GHSA-modified-ahead")).toMatchObject({ modified: null, withdrawn: null, summary: "s" });
    expect(rows.get("GHSA-withdrawn-ahead")?.withdrawn).toBeNull();
    expect(rows.get("GHSA-withdrawn-ahead")?.modified?.toISOString()).toBe(hoursLater(-48).toISOString());
    expect(rows.get("GHSA-withdrawn-before")?.withdrawn?.toISOString()).toBe(hoursLater(-1).toISOString());
  });
});
