import { describe, expect, it } from "vitest";
import { ingestEntries } from "@/lib/catalog/ingest-entries";
import { repositories, repositoryObservations, servers } from "@/lib/db/schema";
import type { Db } from "@/lib/db/client";
import { BASELINE_POLICY, computeHealth, evaluate, STRICT_POLICY } from "@/lib/engine";
import { loadFacts } from "@/lib/facts/load-facts";
import { loadServerEvidence } from "@/lib/harvest/load-server-evidence";
import { resetDb } from "../helpers/db";
import { listing } from "../helpers/catalog-fixture";

// A server the catalog first sees through non-latest rows only (an incremental crawl) is described by its most
// recently published version until a latest arrives (docs/catalog.md). Its facts read that version's packages and
// remotes: they used to read none, so a preflight PASSed on a listing whose npm package nobody had looked up.

const incremental = (observedAt: string) => ({ source: "api" as const, origin: "test", complete: false, observedAt: new Date(observedAt) });
const NAME = "io.github.x/first-seen-old";
const REPO = { url: "https://github.com/x/first-seen-old", source: "github" };
const NOW = new Date("2026-05-02T00:00:00Z");
const pkg = (identifier: string) => ({ registryType: "npm", identifier, version: "1.0.0", transport: { type: "stdio" } });

async function seenThroughOldRows(): Promise<Db> {
  const db = await resetDb();
  await ingestEntries(
    db,
    [
      listing({ name: NAME, version: "0.9.0", repository: REPO, packages: [pkg("@x/older")] }, { isLatest: false, publishedAt: "2026-03-01T00:00:00Z", updatedAt: "2026-05-01T00:00:00Z" }),
      listing(
        { name: NAME, version: "1.0.0", repository: REPO, packages: [pkg("@x/first-seen-old")], remotes: [{ type: "streamable-http", url: "https://a.example/mcp" }] },
        { isLatest: false, publishedAt: "2026-04-01T00:00:00Z", updatedAt: "2026-05-01T00:00:00Z" },
      ),
    ],
    incremental("2026-05-01T01:00:00Z"),
  );
  // the repository the listing names is observed, live and active: with no package or remote read, this PASSed
  const [r] = await db.select().from(repositories);
  await db.insert(repositoryObservations).values({ repositoryId: r.id, exists: true, archived: false, httpStatus: 200, pushedAt: NOW, ownerLogin: "x", observedAt: NOW, attemptedAt: NOW });
  return db;
}

describe("facts of a server seen only through non-latest rows", () => {
  it("name the packages and remotes of the version that describes it, so what was never looked up stays unknown", async () => {
    const db = await seenThroughOldRows();
    const facts = (await loadFacts(db, NAME))!;
    expect(facts.server.version).toBeNull(); // the catalog holds no latest version
    expect(facts.packages.map((p) => [p.identifier, p.exists])).toEqual([["@x/first-seen-old", null]]);
    expect(facts.remotes.map((r) => [r.url, r.live])).toEqual([["https://a.example/mcp", null]]);

    const baseline = evaluate({ facts, policy: BASELINE_POLICY, now: NOW });
    expect(baseline.decision).toBe("REVIEW");
    expect(baseline.reasons.find((x) => x.code === "jspkg_package_missing")).toMatchObject({ result: "unknown", artifact_id: "jspkg:@x/first-seen-old@1.0.0" });
    expect(evaluate({ facts, policy: STRICT_POLICY, now: NOW }).decision).toBe("BLOCK");
    expect(computeHealth(facts, NOW).health).toBe("unknown");
  });

  it("agree with the evidence change detection reads, so a health_change agrees with the card", async () => {
    const db = await seenThroughOldRows();
    const [s] = await db.select({ id: servers.id }).from(servers);
    const evidence = (await loadServerEvidence(db, [s.id])).get(s.id)!;
    expect(evidence.input.packages.map((p) => p.identifier)).toEqual(["@x/first-seen-old"]);
    expect(evidence.input.remotes.map((r) => r.url)).toEqual(["https://a.example/mcp"]);
    expect(evidence.state.health).toBe(computeHealth((await loadFacts(db, NAME))!, NOW).health);
  });

  it("switch to the latest version's once a latest row arrives", async () => {
    const db = await seenThroughOldRows();
    await ingestEntries(db, [listing({ name: NAME, version: "2.0.0", repository: REPO, packages: [pkg("@x/latest")] }, { updatedAt: "2026-05-03T00:00:00Z" })], incremental("2026-05-03T01:00:00Z"));
    const facts = (await loadFacts(db, NAME))!;
    expect(facts.server.version).toBe("2.0.0");
    expect(facts.packages.map((p) => p.identifier)).toEqual(["@x/latest"]);
    expect(facts.remotes).toEqual([]);
  });
});
