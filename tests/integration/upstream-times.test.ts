import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { osvAdvisories } from "@/lib/db/schema";
import { runHarvest } from "@/lib/harvest/run-harvest";
import { ingestEntries } from "@/lib/catalog/ingest-entries";
import { loadServerRecords } from "@/lib/facts/load-facts";
import { readServerObservations } from "@/lib/harvest/read-server-observations";
import type { FakeUpstreams } from "@/scripts/fake-upstreams/server";
import type { GeneratedWorld } from "@/scripts/fake-upstreams/generate";
import { resetDb } from "../helpers/db";
import { startWorld, TEST_HTTP } from "../helpers/harvest-world";

// Times in upstream answers that are odd but valid (many fraction digits, an offset, no offset, years before
// 1970) are stored as the instants they name, whatever the server's own time zone; a time that names no
// instant (a 30th of February, not a time at all) is unknown, never a guess and never the reason a whole
// harvest fails.
describe("times read from GitHub and OSV answers", () => {
  let fake: FakeUpstreams;
  let world: GeneratedWorld;
  let db: Db;
  const now = Date.parse("2026-03-01T00:00:00Z");
  const clock = () => new Date(now);

  const zone = process.env.TZ;
  beforeAll(async () => {
    process.env.TZ = "Asia/Kolkata"; // a server run where its operator lives: a time without an offset is still UTC
    ({ fake, world } = await startWorld(40, 3));
    db = await resetDb();
  });
  afterAll(() => {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
    fake?.close();
  });

  const withRepo = () => world.servers.filter((s) => s.repo && fake.github.repos.get(`${s.repo.owner}/${s.repo.name}`.toLowerCase())?.status === 200);

  it("a repository's last push", async () => {
    const cases: [string, string | null][] = [
      ["2026-01-15T10:00:00.1234567Z", "2026-01-15T10:00:00.123Z"],
      ["2026-01-15T15:30:00.123456789+05:30", "2026-01-15T10:00:00.123Z"],
      ["1969-07-20T20:17:40Z", "1969-07-20T20:17:40.000Z"],
      ["2026-01-15T10:00:00", "2026-01-15T10:00:00.000Z"],
      ["2026-02-30T10:00:00Z", null],
      ["yesterday", null],
      // past our own observation: within a day it is the host's clock skew, beyond it a time the host cannot
      // have reached (a push a year ahead would read as fresh maintenance), so unknown, as for registry times
      ["2026-03-01T23:00:00Z", "2026-03-01T23:00:00.000Z"],
      ["2027-03-01T00:00:00Z", null],
    ];
    const servers = withRepo().slice(0, cases.length);
    servers.forEach((s, i) => {
      const r = fake.github.repos.get(`${s.repo!.owner}/${s.repo!.name}`.toLowerCase())!;
      r.pushedAt = cases[i][0];
    });
    const run = await runHarvest(db, { trigger: "test", http: TEST_HTTP, clock, sources: ["registry", "repo"] });
    expect(run.counts.repo.failed).toBe(0);
    const records = await loadServerRecords(db, servers.map((s) => s.name));
    expect(servers.map((s) => records.get(s.name)!.facts.repository!.pushed_at)).toEqual(cases.map((c) => c[1]));
    expect(servers.map((s) => records.get(s.name)!.facts.repository!.exists)).toEqual(cases.map(() => true));
  });

  it("an advisory's modified time that names no instant is stored as unknown and does not keep advisories out", async () => {
    const [a, b] = world.servers.filter((x) => x.pkg?.ecosystem === "jspkg" && x.pkg.version && fake.npm.packages.has(x.pkg.identifier) && !fake.npm.packages.get(x.pkg.identifier)!.unpublished);
    const add = (id: string, modified: string, s: typeof a) =>
      fake.osv.add({ id, modified, summary: id, severity: "HIGH", ecosystem: "npm", name: s.pkg!.identifier, versions: [s.pkg!.version!] });
    add("GHSA-feb-30", "2026-02-30T00:00:00Z", a);
    add("GHSA-not-a-time", "last Tuesday", b);
    add("GHSA-nanos", "2026-02-03T04:05:06.123456789+01:00", b);
    const run = await runHarvest(db, { trigger: "test", http: TEST_HTTP, clock, sources: ["jspkg", "vuln"] });
    expect(run.counts.vuln.failed).toBe(0);
    expect((await readServerObservations(db, a.name))!.packages[0].advisories?.map((x) => x.id)).toEqual(["GHSA-feb-30"]);
    expect((await readServerObservations(db, b.name))!.packages[0].advisories?.map((x) => x.id)).toEqual(["GHSA-nanos", "GHSA-not-a-time"]);
    const stored = await db.select({ id: osvAdvisories.id, modified: osvAdvisories.modified }).from(osvAdvisories).orderBy(osvAdvisories.id);
    expect(stored.map((r) => [r.id, r.modified?.toISOString() ?? null])).toEqual([
      ["GHSA-feb-30", null],
      ["GHSA-nanos", "2026-02-03T03:05:06.123Z"],
      ["GHSA-not-a-time", null],
    ]);
  });

  it("an advisory's modified or withdrawn time more than a day after we read it is unknown", async () => {
    const [, , c] = world.servers.filter((x) => x.pkg?.ecosystem === "jspkg" && x.pkg.version && fake.npm.packages.has(x.pkg.identifier) && !fake.npm.packages.get(x.pkg.identifier)!.unpublished);
    const add = (id: string, modified: string, withdrawn?: string) =>
      fake.osv.add({ id, modified, summary: id, severity: "HIGH", ecosystem: "npm", name: c.pkg!.identifier, versions: [c.pkg!.version!], withdrawn });
    add("GHSA-next-year", "2027-03-08T00:00:00Z");
    add("GHSA-skewed", "2026-03-08T23:00:00Z");
    // a withdrawal dated a year ahead is not one that has happened: the advisory still counts
    add("GHSA-withdrawn-later", "2026-02-01T00:00:00Z", "2027-03-08T00:00:00Z");
    // a week on, so the look-ups the test before made are due again
    const later = () => new Date("2026-03-08T00:00:00Z");
    const run = await runHarvest(db, { trigger: "test", http: TEST_HTTP, clock: later, sources: ["jspkg", "vuln"] });
    expect(run.counts.vuln.failed).toBe(0);
    expect((await readServerObservations(db, c.name))!.packages[0].advisories?.map((x) => x.id)).toEqual(["GHSA-next-year", "GHSA-skewed", "GHSA-withdrawn-later"]);
    const stored = await db
      .select({ id: osvAdvisories.id, modified: osvAdvisories.modified, withdrawn: osvAdvisories.withdrawn })
      .from(osvAdvisories)
      .where(inArray(osvAdvisories.id, ["GHSA-next-year", "GHSA-skewed", "GHSA-withdrawn-later"]))
      .orderBy(osvAdvisories.id);
    expect(stored.map((r) => [r.id, r.modified?.toISOString() ?? null, r.withdrawn?.toISOString() ?? null])).toEqual([
      ["GHSA-next-year", null, null],
      ["GHSA-skewed", "2026-03-08T23:00:00.000Z", null],
      ["GHSA-withdrawn-later", "2026-02-01T00:00:00.000Z", null],
    ]);
  });
});

describe("times read from registry listings", () => {
  const listing = (name: string, publishedAt: string) => ({
    server: { name, version: "1.0.0", description: "d" },
    _meta: { "io.modelcontextprotocol.registry/official": { status: "active", isLatest: true, publishedAt, updatedAt: publishedAt } },
  });

  it("a first publication before 1970 is kept; Go's zero time (0001-01-01, its 'unset') is unknown, not 2001", async () => {
    const db = await resetDb();
    const observedAt = new Date("2026-03-01T00:00:00Z");
    await ingestEntries(db, [listing("io.github.t/old", "1969-07-20T20:17:40Z"), listing("io.github.t/zero", "0001-01-01T00:00:00Z")], {
      source: "file",
      origin: "test",
      complete: true,
      observedAt,
    });
    const records = await loadServerRecords(db, ["io.github.t/old", "io.github.t/zero"]);
    expect(records.get("io.github.t/old")!.facts.server.first_seen_at).toBe("1969-07-20T20:17:40.000Z");
    // unknown publication: first seen when we first observed the listing
    expect(records.get("io.github.t/zero")!.facts.server.first_seen_at).toBe(observedAt.toISOString());
  });
});
