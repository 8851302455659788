import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { changes, servers } from "@/lib/db/schema";
import { ingestDump } from "@/lib/catalog/ingest-dump";
import { runHarvest } from "@/lib/harvest/run-harvest";
import type { FakeUpstreams } from "@/scripts/fake-upstreams/server";
import { FIXTURE_SERVERS, listing } from "../helpers/catalog-fixture";
import { startFakeCatalog, TEST_HTTP } from "../helpers/harvest-world";

// A new version of a server names its package at a version not looked up yet. When the look-up answers with the
// advisories the server already had (one that affects both versions), nothing changed about the server: watchers
// were sent a `security` event "[] → [A]" for an advisory reported long before, at every version bump. Like health
// and verified, a package's first look-up at a new version is compared with what was last recorded for it.
const NAME = "io.github.acme/bumped";
const version = (v: string, updatedAt: string) =>
  listing(
    {
      name: NAME,
      version: v,
      repository: { url: "https://github.com/acme/bumped", source: "github" },
      packages: [{ registryType: "npm", identifier: "bumped-pkg", version: v, transport: { type: "stdio" } }],
    },
    { updatedAt },
  );

describe("security records across a new version of a server's package", () => {
  let fake: FakeUpstreams;
  let db: Db;
  let now = Date.parse("2026-03-01T00:00:00Z");
  const harvest = () => runHarvest(db, { trigger: "test", http: TEST_HTTP, clock: () => new Date(now), sources: ["repo", "jspkg", "vuln"] });
  const security = async () => {
    const [s] = await db.select({ id: servers.id }).from(servers).where(eq(servers.name, NAME));
    const rows = await db.select().from(changes).where(and(eq(changes.serverId, s.id), eq(changes.kind, "security"))).orderBy(asc(changes.id));
    return rows.map((r) => [r.before, r.after]);
  };
  const adv = (id: string, version: string) => ({ ecosystem: "jspkg", identifier: "bumped-pkg", version, id, severity: "HIGH" });

  beforeAll(async () => {
    ({ fake, db } = await startFakeCatalog([version("1.0.0", "2026-03-01T00:00:00Z")]));
    fake.github.set({ owner: "acme", name: "bumped", id: 8, stars: 3, archived: false, pushedAt: "2026-02-01T00:00:00Z", ownerType: "Organization", status: 200 });
    fake.npm.set({ name: "bumped-pkg", versions: { "1.0.0": null, "1.1.0": null, "2.0.0": null }, latest: "2.0.0" });
    fake.osv.add({ id: "GHSA-old-0001", modified: "2026-02-01T00:00:00Z", summary: "old hole", severity: "HIGH", ecosystem: "npm", name: "bumped-pkg", versions: ["1.0.0", "1.1.0"] });
    await harvest();
  });
  afterAll(() => fake?.close());

  it("records nothing when the new version carries the advisories the old one had", async () => {
    expect(await security()).toEqual([[{ advisories: [] }, { advisories: [adv("GHSA-old-0001", "1.0.0")] }]]);
    await ingestDump(db, [...FIXTURE_SERVERS, version("1.1.0", "2026-03-02T00:00:00Z")], "fixture");
    now += 25 * 3_600_000;
    await harvest();
    expect(await security()).toHaveLength(1);
  });

  it("records the advisory going away when the next version is not affected", async () => {
    await ingestDump(db, [...FIXTURE_SERVERS, version("2.0.0", "2026-03-03T00:00:00Z")], "fixture");
    now += 25 * 3_600_000;
    await harvest();
    // its before is what the feed last reported of the package (the version bump to 1.1.0 reported nothing)
    expect((await security()).slice(1)).toEqual([[{ advisories: [adv("GHSA-old-0001", "1.0.0")] }, { advisories: [] }]]);
  });
});
