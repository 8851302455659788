import { beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { eq } from "drizzle-orm";
import { packageObservations, serverPackages } from "@/lib/db/schema";
import { buildHealthCard } from "@/lib/cards/build-health-card";
import { loadServerRecords } from "@/lib/facts/load-facts";
import { loadServerEvidence } from "@/lib/harvest/load-server-evidence";
import { evaluate, getPolicy } from "@/lib/engine";
import { resetDb } from "../helpers/db";
import { listing, loadFixtureCatalog } from "../helpers/catalog-fixture";

// A listing that pins a release its registry does not have: `uvx ghost-mcp==9.9.9` cannot run.
const NAME = "io.github.ghost/pinned";
const GHOST = listing({
  name: NAME,
  repository: { url: "https://github.com/ghost/pinned", source: "github" },
  packages: [{ registryType: "pypi", identifier: "ghost-mcp", version: "9.9.9", transport: { type: "stdio" } }],
});
let db: Db;
let listedAt: Date;

beforeEach(async () => {
  db = await resetDb();
  listedAt = new Date();
  await loadFixtureCatalog(db, [GHOST]);
});

async function observe(observedAt: Date, versions: Record<string, object>) {
  await db.insert(packageObservations).values({ ecosystem: "pypkg", identifier: "ghost-mcp", exists: true, latestVersion: "0.1.0", versions, observedAt, attemptedAt: observedAt });
}
const record = async () => (await loadServerRecords(db, [NAME])).get(NAME)!;

describe("the listed version of a package", () => {
  it("is missing when the registry, read after the listing, does not have it: the package rule blocks", async () => {
    await observe(new Date(listedAt.getTime() + 60_000), { "0.1.0": {} });
    const { facts } = await record();
    expect(facts.packages[0]).toMatchObject({ identifier: "ghost-mcp", version: "9.9.9", exists: false });
    const result = evaluate({ facts, policy: getPolicy("builtin:baseline")!, now: new Date() });
    expect(result.decision).toBe("BLOCK");
    expect(result.reasons.find((r) => r.code === "pypkg_package_missing")).toMatchObject({ result: "block" });
    // the change feed's and the card's view of the server says the same
    const [evidence] = (await loadServerEvidence(db, [Number((await record()).listing.id)])).values();
    expect(evidence.input.packages[0].exists).toBe(false);
  });

  it("is unknown when the registry was read before the listing was stored (never PASS on the package's word alone)", async () => {
    await observe(new Date(listedAt.getTime() - 86_400_000), { "0.1.0": {} });
    expect((await record()).facts.packages[0].exists).toBeNull();
  });

  it("exists when the registry has it", async () => {
    await observe(new Date(listedAt.getTime() + 60_000), { "0.1.0": {}, "9.9.9": {} });
    expect((await record()).facts.packages[0].exists).toBe(true);
  });
});

describe("the listed release of a PyPI project written with more or fewer trailing zeros than PyPI's", () => {
  it("is read from PyPI's record of that release: yanked there, it is deprecated, as the existence check finds it", async () => {
    // PyPI holds the release as "9.9", the listing writes "9.9.0": one release to PEP 440 (and to the existence check)
    await db.insert(packageObservations).values({
      ecosystem: "pypkg",
      identifier: "ghost-mcp",
      exists: true,
      latestVersion: "9.9.9",
      versions: { "9.9.9": {}, "9.9": { yanked: true } },
      observedAt: new Date(listedAt.getTime() + 60_000),
      attemptedAt: new Date(listedAt.getTime() + 60_000),
    });
    await db.update(serverPackages).set({ version: "9.9.0" }).where(eq(serverPackages.identifier, "ghost-mcp"));
    const { facts, listing: details } = await record();
    expect(facts.packages[0]).toMatchObject({ version: "9.9.0", exists: true, deprecated: true });
    const card = buildHealthCard(facts, details, new Date());
    expect(card.health_problems).toContain("pypkg_deprecated");
    const [evidence] = (await loadServerEvidence(db, [Number(details.id)])).values();
    expect(evidence.state.problems).toContain("pypkg_deprecated");
  });
});
