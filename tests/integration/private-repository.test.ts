import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { GET as serverGet } from "@/app/v1/server/route";
import { POST as preflightPost } from "@/app/v1/preflight/route";
import { repositories, repositoryObservations } from "@/lib/db/schema";
import { runHarvest } from "@/lib/harvest/run-harvest";
import { readServerObservations } from "@/lib/harvest/read-server-observations";
import { startFakeUpstreams, type FakeUpstreams } from "@/scripts/fake-upstreams/server";
import { resetDb } from "../helpers/db";
import { loadFixtureCatalog, request } from "../helpers/catalog-fixture";
import { TEST_HTTP } from "../helpers/harvest-world";

// io.github.acme/weather lists https://github.com/acme/mcp-weather and @acme/mcp-weather@1.4.2
// (tests/helpers/catalog-fixture.ts). The harvester reads GitHub with the operator's token, which may see a
// private repository the public gets a 404 on: the service speaks of public evidence, so such a repository is
// recorded as the public sees it, gone.
const NAME = "io.github.acme/weather";

describe("a listed repository only the operator's token can see (private)", () => {
  let fake: FakeUpstreams;
  let db: Db;
  beforeAll(async () => {
    fake = await startFakeUpstreams({});
    fake.applyEnv();
    fake.github.set({ owner: "acme", name: "mcp-weather", id: 4242, stars: 10, archived: false, pushedAt: "2026-01-01T00:00:00Z", ownerType: "Organization", status: 200, private: true });
    fake.npm.set({ name: "@acme/mcp-weather", versions: { "1.4.2": null }, latest: "1.4.2" });
  });
  beforeEach(async () => {
    db = await resetDb();
    await loadFixtureCatalog(db);
  });
  afterAll(() => fake?.close());

  const harvest = () => runHarvest(db, { trigger: "test", http: TEST_HTTP, clock: () => new Date(), sources: ["repo", "jspkg"] });

  async function expectGoneToThePublic() {
    const [repo] = await db.select().from(repositories).where(eq(repositories.url, "https://github.com/acme/mcp-weather"));
    const [obs] = await db.select().from(repositoryObservations).where(eq(repositoryObservations.repositoryId, repo.id));
    expect(obs).toMatchObject({ exists: false, httpStatus: 404 });
    expect(obs.ownerLogin).toBeNull(); // nothing the public cannot see is kept
    expect((await readServerObservations(db, NAME))!.state).toMatchObject({ verified: false, problems: ["repo_gone"] });
    const card = await (await serverGet(request(`/v1/server?name=${encodeURIComponent(NAME)}`))).json();
    expect(card).toMatchObject({ verified: false, health: "issues", repository: { exists: false } });
    expect(card.health_problems).toContain("repo_gone");
    const result = await (await preflightPost(request("/v1/preflight", { method: "POST", body: { server_name: NAME } }))).json();
    expect(result.reasons.find((r: { code: string }) => r.code === "repo_gone")).toMatchObject({ result: "block" });
    expect(result.decision).toBe("BLOCK");
  }

  it("read through GraphQL (isPrivate), it is gone, not a live repository that makes the server verified", async () => {
    await harvest();
    await expectGoneToThePublic();
  });

  it("read through REST (private / visibility), it is gone too", async () => {
    const token = process.env.GITHUB_TOKEN;
    delete process.env.GITHUB_TOKEN;
    try {
      await harvest();
    } finally {
      process.env.GITHUB_TOKEN = token;
    }
    await expectGoneToThePublic();
  });
});
