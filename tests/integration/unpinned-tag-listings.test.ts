import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { GET as serverGet } from "@/app/v1/server/route";
import { POST as preflightPost } from "@/app/v1/preflight/route";
import { loadFactsMany } from "@/lib/facts/load-facts";
import { runHarvest } from "@/lib/harvest/run-harvest";
import type { FakeUpstreams } from "@/scripts/fake-upstreams/server";
import { listing, request } from "../helpers/catalog-fixture";
import { startFakeCatalog, TEST_HTTP } from "../helpers/harvest-world";

// Listings in the registry name a dist-tag instead of a version ("latest" for npm, "auto" for PyPI). The
// existence check reads such a listing as unpinned (the registry's latest version runs); the vulnerability
// look-up and the deprecation must read it so too, not look up the literal word "latest" (which no advisory
// names and no packument has a record for) and report "no advisory" or "not reported".
const tagged = (name: string, identifier: string) =>
  listing({ name, packages: [{ registryType: "npm", identifier, version: "latest", transport: { type: "stdio" } }] });
const ADV = "io.github.one/tagged-advisory";
const DEP = "io.github.two/tagged-deprecated";

describe("a listing that names the tag 'latest' instead of a version", () => {
  let fake: FakeUpstreams;
  let db: Db;
  beforeAll(async () => {
    ({ fake, db } = await startFakeCatalog([tagged(ADV, "adv-mcp"), tagged(DEP, "dep-mcp")]));
    fake.npm.set({ name: "adv-mcp", versions: { "1.0.0": null, "2.0.0": null }, latest: "2.0.0" });
    fake.npm.set({ name: "dep-mcp", versions: { "1.0.0": null, "2.0.0": "no longer maintained" }, latest: "2.0.0" });
    fake.osv.add({ id: "GHSA-tag-0001", modified: "2026-03-02T00:00:00Z", summary: "hole in 2.0.0", severity: "HIGH", ecosystem: "npm", name: "adv-mcp", versions: ["2.0.0"] });
    await runHarvest(db, { trigger: "test", http: TEST_HTTP, clock: () => new Date(), sources: ["jspkg", "vuln"] });
  });
  afterAll(() => fake?.close());

  it("looks up the advisories of the version the tag resolves to", async () => {
    const pkg = (await loadFactsMany(db, [ADV])).get(ADV)!.packages[0];
    expect(pkg).toMatchObject({ version: "latest", exists: true, advisories: [{ id: "GHSA-tag-0001", summary: "hole in 2.0.0", severity: "HIGH" }] });
    const card = await (await serverGet(request(`/v1/server?name=${encodeURIComponent(ADV)}`))).json();
    expect(card.health_problems).toContain("vuln_package_advisory");
    expect(card.trust_factors.find((f: { factor: string }) => f.factor === "no_known_advisories")).toMatchObject({ points: 0, status: "unmet" });
  });

  it("reads the deprecation of the version the tag resolves to", async () => {
    expect((await loadFactsMany(db, [DEP])).get(DEP)!.packages[0]).toMatchObject({ version: "latest", exists: true, deprecated: true });
    const card = await (await serverGet(request(`/v1/server?name=${encodeURIComponent(DEP)}`))).json();
    expect(card).toMatchObject({ jspkg_deprecated: true, health: "issues" });
    const result = await (await preflightPost(request("/v1/preflight", { method: "POST", body: { server_name: DEP } }))).json();
    expect(result.reasons.find((r: { code: string }) => r.code === "jspkg_deprecated")).toMatchObject({ result: "block" });
    expect(result.decision).toBe("BLOCK");
  });
});
