import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { changes } from "@/lib/db/schema";
import { POST as preflightPost } from "@/app/v1/preflight/route";
import { GET as serverGet } from "@/app/v1/server/route";
import { loadFactsMany } from "@/lib/facts/load-facts";
import { runHarvest } from "@/lib/harvest/run-harvest";
import type { FakeUpstreams } from "@/scripts/fake-upstreams/server";
import { listing, request } from "../helpers/catalog-fixture";
import { startFakeCatalog, TEST_HTTP } from "../helpers/harvest-world";

// OSV lists one flaw of a PyPI project under several ids: GitHub's GHSA and PyPA's PYSEC, each naming the CVE (and
// the PYSEC the GHSA), and a querybatch answers both (reference/upstream-apis.md §5.3: "de-duplicate with
// `aliases`"). Counted as found, one hole read as two advisories on the card, the preflight and the trust factor.
// The listing spells the project as its author did (`Acme_MCP`), the registries by its PEP 503 name.
const NAME = "io.github.acme/py-aliases";
const HOUR = 3_600_000;

describe("advisories OSV lists under several ids (aliases)", () => {
  let fake: FakeUpstreams;
  let db: Db;
  let now = Date.parse("2026-03-05T00:00:00Z");
  const harvest = (sources: ("pypkg" | "vuln")[]) => runHarvest(db, { trigger: "test", http: TEST_HTTP, clock: () => new Date(now), sources });
  const ids = async () => (await loadFactsMany(db, [NAME])).get(NAME)!.packages[0].advisories?.map((a) => a.id);

  beforeAll(async () => {
    ({ fake, db } = await startFakeCatalog([
      listing({ name: NAME, packages: [{ registryType: "pypi", identifier: "Acme_MCP", version: "1.0.0", transport: { type: "stdio" } }] }),
    ]));
    fake.pypi.set({ name: "acme-mcp", versions: { "1.0.0": false, "1.1.0": false }, latest: "1.1.0" });
    const flaw = { modified: "2026-03-01T00:00:00Z", severity: "HIGH" as const, ecosystem: "PyPI", name: "acme-mcp", versions: ["1.0.0"] };
    fake.osv.add({ ...flaw, id: "GHSA-aaaa-bbbb-cccc", summary: "path traversal", aliases: ["CVE-2026-1001"] });
    fake.osv.add({ ...flaw, id: "PYSEC-2026-11", summary: "path traversal", aliases: ["CVE-2026-1001", "GHSA-aaaa-bbbb-cccc"] });
    fake.osv.add({ ...flaw, id: "GHSA-dddd-eeee-ffff", summary: "another hole", aliases: ["CVE-2026-2002"] });
    await harvest(["pypkg", "vuln"]);
  });
  afterAll(() => fake?.close());

  it("counts a flaw once, by one of its ids, and a distinct flaw apart", async () => {
    expect(await ids()).toEqual(["GHSA-aaaa-bbbb-cccc", "GHSA-dddd-eeee-ffff"]);
  });

  it("the card and the preflight name two advisories, not three", async () => {
    const card = await (await serverGet(request(`/v1/server?name=${encodeURIComponent(NAME)}`))).json();
    expect(card.health_problems).toContain("vuln_package_advisory");
    expect(card.packages[0].advisories).toEqual(["GHSA-aaaa-bbbb-cccc", "GHSA-dddd-eeee-ffff"]);
    const result = await (await preflightPost(request("/v1/preflight", { method: "POST", body: { server_name: NAME } }))).json();
    const reason = result.reasons.find((r: { code: string }) => r.code === "vuln_package_advisory");
    expect(reason.summary).toContain("2 advisories");
    expect(reason.summary).not.toContain("PYSEC-2026-11");
  });

  it("a look-up answering the same flaws again records no security change, and one that is withdrawn leaves its alias counting", async () => {
    const before = await db.select().from(changes).where(and(eq(changes.serverName, NAME), eq(changes.kind, "security")));
    now += 25 * HOUR;
    await harvest(["vuln"]);
    expect(await db.select().from(changes).where(and(eq(changes.serverName, NAME), eq(changes.kind, "security")))).toHaveLength(before.length);
    // GitHub withdraws its record of the flaw (say, as a duplicate): PyPA's still names it
    const ghsa = fake.osv.vulns.get("GHSA-aaaa-bbbb-cccc")!;
    ghsa.withdrawn = "2026-03-06T00:00:00Z";
    ghsa.modified = "2026-03-06T00:00:00Z";
    now += 25 * HOUR;
    await harvest(["vuln"]);
    expect(await ids()).toEqual(["GHSA-dddd-eeee-ffff", "PYSEC-2026-11"]);
  });
});
