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
});
