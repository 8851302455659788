import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { loadFactsMany } from "@/lib/facts/load-facts";
import { query } from "@/lib/harvest/db-helpers";
import { runHarvest } from "@/lib/harvest/run-harvest";
import type { FakeUpstreams } from "@/scripts/fake-upstreams/server";
import { listing } from "../helpers/catalog-fixture";
import { startFakeCatalog, TEST_HTTP } from "../helpers/harvest-world";

// OSV answers a query without a version with every advisory of the package (the fake now does too). An unpinned
// listing is looked up at the registry's latest version: an empty `dist-tags.latest` (or PyPI `info.version`) names
// none, and looked up as "" the server carried advisories of versions it does not run.
const JS = "io.github.one/empty-latest";
const PY = "io.github.two/empty-version";
const OLD = "io.github.three/stored-empty";
const unpinned = (name: string, registryType: string, identifier: string) => listing({ name, packages: [{ registryType, identifier, transport: { type: "stdio" } }] });

describe("an unpinned listing whose registry names an empty latest version", () => {
  let fake: FakeUpstreams;
  let db: Db;
  beforeAll(async () => {
    ({ fake, db } = await startFakeCatalog([unpinned(JS, "npm", "empty-latest-mcp"), unpinned(PY, "pypi", "empty-version-mcp"), unpinned(OLD, "npm", "stored-empty-mcp")]));
    fake.npm.set({ name: "empty-latest-mcp", versions: { "1.0.0": null, "2.0.0": null }, latest: "" });
    fake.pypi.set({ name: "empty-version-mcp", versions: { "1.0.0": false }, latest: "" });
    fake.npm.set({ name: "stored-empty-mcp", versions: { "1.0.0": null }, latest: "1.0.0" });
    for (const [ecosystem, name] of [["npm", "empty-latest-mcp"], ["PyPI", "empty-version-mcp"], ["npm", "stored-empty-mcp"]]) {
      fake.osv.add({ id: `GHSA-${name}`, modified: "2026-03-02T00:00:00Z", summary: "hole in 1.0.0 only", severity: "HIGH", ecosystem, name, versions: ["1.0.0"] });
    }
    await runHarvest(db, { trigger: "test", http: TEST_HTTP, clock: () => new Date(), sources: ["jspkg", "pypkg"] });
    // an observation stored before the sources refused an empty latest
    await db.execute(sql`update package_observations set latest_version = '' where identifier = 'stored-empty-mcp'`);
    await runHarvest(db, { trigger: "test", http: TEST_HTTP, clock: () => new Date(), sources: ["vuln"] });
  });
  afterAll(() => fake?.close());

  it("no latest version is known, and no look-up is made at none", async () => {
    const facts = await loadFactsMany(db, [JS, PY, OLD]);
    for (const name of [JS, PY, OLD]) expect(facts.get(name)!.packages[0]).toMatchObject({ exists: true, advisories: null });
    expect(fake.osv.batchCalls).toBe(0);
    expect(await query(db, sql`select * from vuln_observations`)).toEqual([]);
  });
});
