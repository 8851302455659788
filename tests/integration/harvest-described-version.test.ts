import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { changes, packageObservations, remoteObservations, servers, vulnObservations } from "@/lib/db/schema";
import { ingestEntries } from "@/lib/catalog/ingest-entries";
import { loadFacts } from "@/lib/facts/load-facts";
import { runHarvest } from "@/lib/harvest/run-harvest";
import { readServerObservations } from "@/lib/harvest/read-server-observations";
import type { FakeUpstreams } from "@/scripts/fake-upstreams/server";
import { listing } from "../helpers/catalog-fixture";
import { startFakeCatalog, TEST_HTTP } from "../helpers/harvest-world";

// A server the catalog has seen only through non-latest rows (an incremental crawl) is described by one of them
// (lib/facts/described-version.ts): its card and preflight read that version's packages and remotes. The harvest
// looked only at servers' latest versions, so those packages were never looked up, their advisories never read,
// the remotes never probed (the card said "unknown" for good) and no change of the server was ever detected.
const NAME = "io.github.acme/first-seen-old";
const HOUR = 3_600_000;
const incremental = (observedAt: string) => ({ source: "api" as const, origin: "test", complete: false, observedAt: new Date(observedAt) });
const npm = (identifier: string, version: string) => ({ registryType: "npm", identifier, version, transport: { type: "stdio" } });

describe("harvesting a server known only through non-latest rows", () => {
  let fake: FakeUpstreams;
  let db: Db;
  let remote: string;
  let now = Date.parse("2026-03-03T00:00:00Z");
  const harvest = () => runHarvest(db, { trigger: "test", http: TEST_HTTP, clock: () => new Date(now), sources: ["jspkg", "vuln", "liveness"] });
  const serverChanges = async (kind: string) => {
    const [s] = await db.select({ id: servers.id }).from(servers).where(eq(servers.name, NAME));
    const rows = await db.select().from(changes).where(and(eq(changes.serverId, s.id), eq(changes.kind, kind))).orderBy(asc(changes.id));
    return rows.map((r) => [r.before, r.after]);
  };

  beforeAll(async () => {
    ({ fake, db } = await startFakeCatalog([]));
    remote = `${fake.url}/mcp/described`;
    await ingestEntries(
      db,
      [
        listing({ name: NAME, version: "0.9.0", packages: [npm("older-pkg", "0.9.0")], remotes: [{ type: "streamable-http", url: `${fake.url}/mcp/older` }] }, { isLatest: false, publishedAt: "2026-02-01T00:00:00Z" }),
        listing(
          { name: NAME, version: "1.0.0", packages: [npm("described-pkg", "1.0.0")], remotes: [{ type: "streamable-http", url: remote }] },
          { isLatest: false, publishedAt: "2026-02-15T00:00:00Z" },
        ),
      ],
      incremental("2026-03-02T00:00:00Z"),
    );
    fake.npm.set({ name: "described-pkg", versions: { "1.0.0": null }, latest: "1.0.0" });
    fake.npm.set({ name: "older-pkg", versions: { "0.9.0": null }, latest: "0.9.0" });
    fake.osv.add({ id: "GHSA-desc-0001", modified: "2026-02-01T00:00:00Z", summary: "a hole", severity: "HIGH", ecosystem: "npm", name: "described-pkg", versions: ["1.0.0"] });
    fake.mcp.set("described", { tools: [{ name: "t", description: "a tool" }] });
    fake.mcp.set("older", { tools: [{ name: "t", description: "a tool" }] });
    const [s] = await db.select().from(servers).where(eq(servers.name, NAME));
    expect(s.latestVersionId).toBeNull();
    await harvest();
  });
  afterAll(() => fake?.close());

  it("looks up the described version's packages and advisories and probes its remotes, not the older version's", async () => {
    const [pkg] = await db.select().from(packageObservations).where(eq(packageObservations.identifier, "described-pkg"));
    expect(pkg).toMatchObject({ ecosystem: "jspkg", exists: true });
    const [vuln] = await db.select().from(vulnObservations).where(eq(vulnObservations.identifier, "described-pkg"));
    expect(vuln).toMatchObject({ listedVersion: "1.0.0", advisories: [expect.objectContaining({ id: "GHSA-desc-0001" })] });
    const [obs] = await db.select().from(remoteObservations).where(eq(remoteObservations.url, remote));
    expect(obs).toMatchObject({ live: true, toolsCount: 1 });
    // only the version that describes the server is harvested
    expect(await db.select().from(packageObservations).where(eq(packageObservations.identifier, "older-pkg"))).toEqual([]);
    expect(await db.select().from(remoteObservations).where(eq(remoteObservations.url, `${fake.url}/mcp/older`))).toEqual([]);

    // what the card and preflight read is now known
    const facts = (await loadFacts(db, NAME))!;
    expect(facts.packages.map((p) => [p.identifier, p.exists, p.advisories?.map((a) => a.id)])).toEqual([["described-pkg", true, ["GHSA-desc-0001"]]]);
    expect(facts.remotes.map((r) => [r.url, r.live])).toEqual([[remote, true]]);
    const read = (await readServerObservations(db, NAME))!;
    expect(read.packages.map((p) => [p.identifier, p.observation?.exists, p.advisories?.map((a) => a.id)])).toEqual([["described-pkg", true, ["GHSA-desc-0001"]]]);
    expect(read.remotes.map((r) => [r.url, r.observation?.live])).toEqual([[remote, true]]);
  });

  it("records the server's changes as for any server", async () => {
    expect(await serverChanges("security")).toEqual([
      [{ advisories: [] }, { advisories: [{ ecosystem: "jspkg", identifier: "described-pkg", version: "1.0.0", id: "GHSA-desc-0001", severity: "HIGH" }] }],
    ]);
    expect((await serverChanges("health_change")).length).toBeGreaterThan(0);
    fake.mcp.set("described", { tools: [], status: 404 });
    now += 25 * HOUR;
    await harvest();
    expect(await serverChanges("remote_down")).toEqual([[{ url: remote, live: true, http_status: expect.any(Number) }, { url: remote, live: false, http_status: 404 }]]);
  });
});
