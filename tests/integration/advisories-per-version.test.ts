import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { GET as serverGet } from "@/app/v1/server/route";
import { POST as preflightPost } from "@/app/v1/preflight/route";
import { getPolicy } from "@/lib/engine";
import { loadFactsMany } from "@/lib/facts/load-facts";
import { runHarvest } from "@/lib/harvest/run-harvest";
import type { FakeUpstreams } from "@/scripts/fake-upstreams/server";
import { listing, request } from "../helpers/catalog-fixture";
import { startFakeCatalog, TEST_HTTP } from "../helpers/harvest-world";

// Three servers list one npm package: one pins 1.0.0 (which has an advisory), two pin 2.0.0 (which has
// none). The look-up of each listed version is what each server's facts must carry: not the look-up of
// the version most servers list.
const pinned = (name: string, version: string) =>
  listing({ name, packages: [{ registryType: "npm", identifier: "shared-mcp", version, transport: { type: "stdio" } }] });
const OLD = "io.github.one/old-pin";
const NEW = ["io.github.two/new-pin", "io.github.three/new-pin"];

describe("advisories of a package that servers list at different versions", () => {
  let fake: FakeUpstreams;
  let db: Db;
  beforeAll(async () => {
    ({ fake, db } = await startFakeCatalog([pinned(OLD, "1.0.0"), ...NEW.map((n) => pinned(n, "2.0.0"))]));
    fake.npm.set({ name: "shared-mcp", versions: { "1.0.0": null, "2.0.0": null }, latest: "2.0.0" });
    fake.osv.add({ id: "GHSA-old-0001", modified: "2026-03-02T00:00:00Z", summary: "hole in 1.0.0", severity: "HIGH", ecosystem: "npm", name: "shared-mcp", versions: ["1.0.0"] });
    await runHarvest(db, { trigger: "test", http: TEST_HTTP, clock: () => new Date(), sources: ["jspkg", "vuln"] });
  });
  afterAll(() => fake?.close());

  it("each server's facts carry the look-up of the version it lists", async () => {
    const facts = await loadFactsMany(db, [OLD, ...NEW]);
    const old = facts.get(OLD)!.packages[0];
    expect(old).toMatchObject({ version: "1.0.0", advisories: [{ id: "GHSA-old-0001", summary: "hole in 1.0.0", severity: "HIGH" }] });
    expect(old.advisories_observed_at).not.toBeNull();
    for (const n of NEW) expect(facts.get(n)!.packages[0]).toMatchObject({ version: "2.0.0", advisories: [], advisories_observed_at: expect.any(String) });
  });

  it("the card and the preflight of the less common version report its advisory, not 'not observed'", async () => {
    const card = await (await serverGet(request(`/v1/server?name=${encodeURIComponent(OLD)}`))).json();
    expect(card.health).toBe("issues");
    expect(card.health_problems).toContain("vuln_package_advisory");
    const res = await preflightPost(request("/v1/preflight", { method: "POST", body: { server_name: OLD } }));
    const result = await res.json();
    expect(res.status).toBe(200);
    const reason = result.reasons.find((r: { code: string }) => r.code === "vuln_package_advisory");
    expect(reason).toMatchObject({ result: getPolicy("builtin:baseline")!.findings.vuln_package_advisory, summary: expect.stringContaining("GHSA-old-0001") });
    expect(result.decision).not.toBe("PASS");
    // a server listing the common version passes that rule
    const other = await (await preflightPost(request("/v1/preflight", { method: "POST", body: { server_name: NEW[0] } }))).json();
    expect(other.reasons.find((r: { code: string }) => r.code === "vuln_package_advisory")).toMatchObject({ result: "pass" });
  });
});

// Listings that pin a version with a leading `v` or `=` (the real registry has `"version": "v1.0.2"` for a PyPI
// package): the existence check reads them as the release 1.0.2, and so must the look-up, or an advisory on
// 1.0.2 is missed and the rule passes on a look-up of a version no advisory names.
describe("advisories of a version pinned with a leading v or =", () => {
  let fake: FakeUpstreams;
  let db: Db;
  const PY = "io.github.stepbot/v-pinned";
  const JS = "io.github.eq/eq-pinned";
  beforeAll(async () => {
    ({ fake, db } = await startFakeCatalog([
      listing({ name: PY, packages: [{ registryType: "pypi", identifier: "v-pinned-mcp", version: "v1.0.2", transport: { type: "stdio" } }] }),
      listing({ name: JS, packages: [{ registryType: "npm", identifier: "eq-pinned-mcp", version: "=1.2.3", transport: { type: "stdio" } }] }),
    ]));
    fake.pypi.set({ name: "v-pinned-mcp", versions: { "1.0.2": false }, latest: "1.0.2" });
    fake.npm.set({ name: "eq-pinned-mcp", versions: { "1.2.3": null }, latest: "1.2.3" });
    fake.osv.add({ id: "PYSEC-v-0001", modified: "2026-03-02T00:00:00Z", summary: "hole in 1.0.2", severity: "HIGH", ecosystem: "PyPI", name: "v-pinned-mcp", versions: ["1.0.2"] });
    fake.osv.add({ id: "GHSA-eq-0001", modified: "2026-03-02T00:00:00Z", summary: "hole in 1.2.3", severity: "HIGH", ecosystem: "npm", name: "eq-pinned-mcp", versions: ["1.2.3"] });
    await runHarvest(db, { trigger: "test", http: TEST_HTTP, clock: () => new Date(), sources: ["jspkg", "pypkg", "vuln"] });
  });
  afterAll(() => fake?.close());

  it("looks up the release the listing pins, as the existence check reads it", async () => {
    const facts = await loadFactsMany(db, [PY, JS]);
    expect(facts.get(PY)!.packages[0]).toMatchObject({ version: "v1.0.2", exists: true, advisories: [{ id: "PYSEC-v-0001" }] });
    expect(facts.get(JS)!.packages[0]).toMatchObject({ version: "=1.2.3", exists: true, advisories: [{ id: "GHSA-eq-0001" }] });
    const result = await (await preflightPost(request("/v1/preflight", { method: "POST", body: { server_name: PY } }))).json();
    expect(result.reasons.find((r: { code: string }) => r.code === "vuln_package_advisory")).toMatchObject({ result: "review" });
  });
});
