import { beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { repositories, repositoryObservations } from "@/lib/db/schema";
import { loadServerRecords } from "@/lib/facts/load-facts";
import { readServerObservations } from "@/lib/harvest/read-server-observations";
import { resetDb } from "../helpers/db";
import { loadFixtureCatalog } from "../helpers/catalog-fixture";

// io.github.acme/weather lists https://github.com/acme/mcp-weather (tests/helpers/catalog-fixture.ts)
const NAME = "io.github.acme/weather";
let db: Db;
let repositoryId: number;

beforeEach(async () => {
  db = await resetDb();
  await loadFixtureCatalog(db);
  [{ id: repositoryId }] = await db.select({ id: repositories.id }).from(repositories).where(eq(repositories.url, "https://github.com/acme/mcp-weather"));
});

async function observe(o: { ownerLogin: string; disabled?: boolean }) {
  const at = new Date();
  const row = { repositoryId, exists: true, httpStatus: 200, archived: false, disabled: o.disabled ?? false, ownerLogin: o.ownerLogin, observedAt: at, attemptedAt: at };
  await db.insert(repositoryObservations).values(row).onConflictDoUpdate({ target: repositoryObservations.repositoryId, set: row });
}
const facts = async () => (await loadServerRecords(db, [NAME])).get(NAME)!.facts;

describe("what the code host said about the listed repository", () => {
  it("a repository transferred to another owner is not the namespace's own, whatever the listed URL says", async () => {
    await observe({ ownerLogin: "acme" });
    expect((await facts()).identity).toMatchObject({ first_party: true, basis: "github_namespace_owns_repository" });
    await observe({ ownerLogin: "mallory" });
    expect((await facts()).identity).toMatchObject({ first_party: false, basis: "github_repository_moved_to_another_owner" });
  });

  it("a repository its host has disabled counts as gone, for facts and for health", async () => {
    await observe({ ownerLogin: "acme", disabled: true });
    expect((await facts()).repository).toMatchObject({ exists: false });
    const obs = await readServerObservations(db, NAME);
    expect(obs!.state.problems).toContain("repo_gone");
    expect(obs!.state.verified).toBe(false);
  });

  it("a repository the host answers is gone carries no archive state, last push or stars from an earlier answer", async () => {
    const before = new Date("2026-03-02T00:00:00Z");
    const seen = { repositoryId, exists: true, httpStatus: 200, archived: true, disabled: false, pushedAt: new Date("2025-01-01T00:00:00Z"), stars: 321, ownerLogin: "acme", observedAt: before, attemptedAt: before };
    await db.insert(repositoryObservations).values(seen);
    expect((await facts()).repository).toMatchObject({ exists: true, archived: true, stars: 321, pushed_at: "2025-01-01T00:00:00.000Z" });
    // what the harvester writes on a 404: exists and the times move, the rest of the row stays
    const at = new Date("2026-03-03T00:00:00Z");
    await db.update(repositoryObservations).set({ exists: false, httpStatus: 404, observedAt: at, attemptedAt: at }).where(eq(repositoryObservations.repositoryId, repositoryId));
    expect((await facts()).repository).toMatchObject({ exists: false, archived: null, pushed_at: null, stars: null, observed_at: at.toISOString() });
  });
});
