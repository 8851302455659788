import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { vulnObservations } from "@/lib/db/schema";
import { runHarvest } from "@/lib/harvest/run-harvest";
import type { FakeUpstreams } from "@/scripts/fake-upstreams/server";
import { listing } from "../helpers/catalog-fixture";
import { startFakeCatalog, TEST_HTTP } from "../helpers/harvest-world";

// OSV pages a querybatch result past its page size (one query matching many advisories, or a batch matching
// thousands: reference/upstream-apis.md §5.2), and only those queries are sent again with their token. When that
// follow-up fails, the other look-ups of the batch were already answered whole: they are observations, not failures.
const pinned = (name: string, identifier: string) =>
  listing({ name, packages: [{ registryType: "npm", identifier, version: "1.0.0", transport: { type: "stdio" } }] });

describe("an OSV page-token follow-up that fails", () => {
  let fake: FakeUpstreams;
  let db: Db;
  let batches = 0;
  const lookUp = async (identifier: string) =>
    (await db.select().from(vulnObservations).where(and(eq(vulnObservations.ecosystem, "jspkg"), eq(vulnObservations.identifier, identifier))))[0];

  beforeAll(async () => {
    ({ fake, db } = await startFakeCatalog([pinned("io.github.acme/paged", "paged-mcp"), pinned("io.github.acme/whole", "whole-mcp")]));
    for (const name of ["paged-mcp", "whole-mcp"]) fake.npm.set({ name, versions: { "1.0.0": null }, latest: "1.0.0" });
    const hole = { modified: "2026-03-01T00:00:00Z", summary: "hole", severity: "HIGH" as const, ecosystem: "npm", versions: ["1.0.0"] };
    for (const id of ["GHSA-p-1", "GHSA-p-2", "GHSA-p-3"]) fake.osv.add({ ...hole, id, name: "paged-mcp" });
    fake.osv.add({ ...hole, id: "GHSA-w-1", name: "whole-mcp" });
    fake.osv.pageSize = 2;
    // the first querybatch is answered; every one after it (the page-token follow-up and its retries) fails
    const handle = fake.osv.handle.bind(fake.osv);
    fake.osv.handle = (path, req, res, body) => {
      if (path === "/v1/querybatch" && ++batches > 1) return res.writeHead(503, { "content-type": "application/json" }).end("{}"), true;
      return handle(path, req, res, body);
    };
    await runHarvest(db, { trigger: "test", http: TEST_HTTP, clock: () => new Date(), sources: ["jspkg", "vuln"] });
  });
  afterAll(() => fake?.close());

  it("stores the look-ups the batch answered whole", async () => {
    expect(batches).toBeGreaterThan(1);
    const whole = await lookUp("whole-mcp");
    expect(whole).toMatchObject({ lastError: null, advisories: [{ id: "GHSA-w-1", severity: "HIGH" }] });
    expect(whole.observedAt).not.toBeNull();
  });

  it("records the paged look-up as failed, not as the first page's advisories", async () => {
    const paged = await lookUp("paged-mcp");
    expect(paged.observedAt).toBeNull();
    expect(paged.advisories).toBeNull();
    expect(paged.lastError).toMatch(/HTTP 503/);
  });
});
