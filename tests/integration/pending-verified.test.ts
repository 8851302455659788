import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { changes, servers } from "@/lib/db/schema";
import { ingestDump } from "@/lib/catalog/ingest-dump";
import { runHarvest } from "@/lib/harvest/run-harvest";
import type { FakeUpstreams } from "@/scripts/fake-upstreams/server";
import { FIXTURE_SERVERS, listing } from "../helpers/catalog-fixture";
import { startFakeCatalog, TEST_HTTP } from "../helpers/harvest-world";

// A new version naming a package not observed yet makes `verified` false until the next harvest looks at it.
// That is evidence pending, not a transition of the server: watchers were sent "verified: false" at the ingest
// and "verified: true" at the harvest, for nothing. Health already treats it so; verified now does too, and a
// pending package that turns out missing is still recorded, compared with the last value recorded.
const NAME = "io.github.acme/pending";
const pkg = (identifier: string) => ({ registryType: "npm", identifier, version: "1.0.0", transport: { type: "stdio" } });
const version = (v: string, packages: string[], updatedAt: string) =>
  listing({ name: NAME, version: v, repository: { url: "https://github.com/acme/pending", source: "github" }, packages: packages.map(pkg) }, { updatedAt });

describe("verified while a new version's package is not observed yet", () => {
  let fake: FakeUpstreams;
  let db: Db;
  const harvest = () => runHarvest(db, { trigger: "test", http: TEST_HTTP, clock: () => new Date(), sources: ["repo", "jspkg", "vuln"] });
  const verifiedChanges = async () => {
    const [s] = await db.select({ id: servers.id }).from(servers).where(eq(servers.name, NAME));
    const rows = await db.select().from(changes).where(and(eq(changes.serverId, s.id), eq(changes.kind, "verified_change"))).orderBy(asc(changes.id));
    return rows.map((r) => [r.before, r.after]);
  };

  beforeAll(async () => {
    ({ fake, db } = await startFakeCatalog([version("1.0.0", ["pending-a"], "2026-03-01T00:00:00Z")]));
    fake.github.set({ owner: "acme", name: "pending", id: 7, stars: 3, archived: false, pushedAt: "2026-02-01T00:00:00Z", ownerType: "Organization", status: 200 });
    for (const name of ["pending-a", "pending-b"]) fake.npm.set({ name, versions: { "1.0.0": null }, latest: "1.0.0" });
    await harvest();
  });
  afterAll(() => fake?.close());

  it("records no change when the new package is found live at the next harvest", async () => {
    // the server's first known value is recorded once, from null: before the first harvest verified was not
    // known, and "false" there would tell the feed and every watcher of a transition nobody observed
    expect(await verifiedChanges()).toEqual([[{ verified: null }, { verified: true }]]);
    await ingestDump(db, [...FIXTURE_SERVERS, version("2.0.0", ["pending-a", "pending-b"], "2026-03-02T00:00:00Z")], "fixture");
    expect(await verifiedChanges()).toHaveLength(1);
    await harvest();
    expect(await verifiedChanges()).toHaveLength(1);
  });

  it("records true → false when the pending package turns out missing", async () => {
    await ingestDump(db, [...FIXTURE_SERVERS, version("3.0.0", ["pending-a", "pending-gone"], "2026-03-03T00:00:00Z")], "fixture");
    expect(await verifiedChanges()).toHaveLength(1);
    await harvest();
    expect((await verifiedChanges()).slice(1)).toEqual([[{ verified: true }, { verified: false }]]);
  });

  it("records a first known false from null too, as health records leaving unknown", async () => {
    const gone = "io.github.acme/gone-first";
    await ingestDump(db, [...FIXTURE_SERVERS, version("3.0.0", ["pending-a", "pending-gone"], "2026-03-03T00:00:00Z"), listing({ name: gone, version: "1.0.0", repository: { url: "https://github.com/acme/gone-first", source: "github" } }, { updatedAt: "2026-03-04T00:00:00Z" })], "fixture");
    fake.github.set({ owner: "acme", name: "gone-first", id: 8, stars: 0, archived: false, pushedAt: "2026-02-01T00:00:00Z", ownerType: "Organization", status: 404 });
    await harvest();
    const [s] = await db.select({ id: servers.id }).from(servers).where(eq(servers.name, gone));
    const rows = await db.select().from(changes).where(and(eq(changes.serverId, s.id), eq(changes.kind, "verified_change")));
    expect(rows.map((r) => [r.before, r.after])).toEqual([[{ verified: null }, { verified: false }]]);
  });
});
