import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Db } from "@/lib/db/client";
import { repositories, repositoryObservations, sourceCooldowns } from "@/lib/db/schema";
import { runHarvest } from "@/lib/harvest/run-harvest";
import type { FakeUpstreams } from "@/scripts/fake-upstreams/server";
import { listing } from "../helpers/catalog-fixture";
import { startFakeCatalog, TEST_HTTP } from "../helpers/harvest-world";

// GitHub refuses a GraphQL query it finds too costly ("Resource limits for this query exceeded",
// reference/upstream-apis.md §2.3): the harvester halves the batch and asks again. When the second half then
// fails or is rate limited, the first half was already answered: those repositories are observations, not
// failures of the whole batch.
const repo = (owner: string, name: string) => listing({ name: `io.github.${owner}/${name}`, repository: { url: `https://github.com/${owner}/${name}`, source: "github" } });
// with the fixture's acme/mcp-weather and carol/old, four repositories: refused whole, asked two and two
const LATE = "late-two";
const REFUSED = { data: null, errors: [{ message: "Resource limits for this query exceeded." }] };

type Reply = (res: ServerResponse) => void;

async function harvestWithLateHalf(reply: Reply) {
  const { fake, db } = await startFakeCatalog([repo("acme", "late-one"), repo("acme", LATE)]);
  for (const [owner, name, id] of [["acme", "mcp-weather", 1], ["carol", "old", 2], ["acme", "late-one", 3], ["acme", LATE, 4]] as const) {
    fake.github.set({ owner, name, id, stars: 5, archived: false, pushedAt: "2026-01-01T00:00:00Z", ownerType: "User", status: 200 });
  }
  const queries: string[][] = [];
  const handle = fake.github.handle.bind(fake.github);
  fake.github.handle = (path: string, req: IncomingMessage, res: ServerResponse, body: string, baseUrl: string) => {
    if (path === "/graphql") {
      const names = [...(JSON.parse(body).query as string).matchAll(/name: "([^"]+)"/g)].map((m) => m[1]);
      queries.push(names);
      if (names.length > 2) return res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(REFUSED)), true;
      if (names.includes(LATE)) return reply(res), true;
    }
    return handle(path, req, res, body, baseUrl);
  };
  await runHarvest(db, { trigger: "test", http: TEST_HTTP, clock: () => new Date(), sources: ["repo"] });
  return { fake, db, queries };
}

async function observationOf(db: Db, name: string) {
  const [r] = await db.select().from(repositories).where(eq(repositories.url, `https://github.com/${name}`));
  return (await db.select().from(repositoryObservations).where(eq(repositoryObservations.repositoryId, r.id)))[0];
}

async function expectFirstHalfKept(db: Db, queries: string[][]) {
  // refused whole, then the answered half, then the half that failed
  expect(queries[0]).toHaveLength(4);
  const answered = queries[1];
  expect(answered).toHaveLength(2);
  expect(answered).not.toContain(LATE);
  expect(queries.at(-1)).toContain(LATE);
  const owners: Record<string, string> = { "mcp-weather": "acme", old: "carol", "late-one": "acme" };
  for (const name of answered) {
    const obs = await observationOf(db, `${owners[name]}/${name}`);
    expect(obs).toMatchObject({ exists: true, stars: 5, lastError: null });
    expect(obs.observedAt).not.toBeNull();
  }
}

describe("a split GitHub query whose second half fails", () => {
  let fake: FakeUpstreams;
  let db: Db;
  let queries: string[][];
  beforeAll(async () => {
    ({ fake, db, queries } = await harvestWithLateHalf((res) => res.writeHead(502, { "content-type": "application/json" }).end("{}")));
  });
  afterAll(() => fake?.close());

  it("keeps the first half's answers", async () => {
    await expectFirstHalfKept(db, queries);
  });

  it("records the second half's repositories as failed, with no observation", async () => {
    const late = queries.at(-1)!;
    for (const name of late) {
      const obs = await observationOf(db, `acme/${name}`);
      expect(obs.observedAt).toBeNull();
      expect(obs.lastError).toMatch(/HTTP 502/);
    }
  });
});

describe("a split GitHub query whose second half is rate limited", () => {
  let fake: FakeUpstreams;
  let db: Db;
  let queries: string[][];
  const resetAt = new Date(Date.now() + 3_600_000);
  beforeAll(async () => {
    ({ fake, db, queries } = await harvestWithLateHalf((res) =>
      res
        .writeHead(200, { "content-type": "application/json", "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(Math.ceil(resetAt.getTime() / 1000)) })
        .end(JSON.stringify({ data: null, errors: [{ type: "RATE_LIMITED", message: "API rate limit exceeded" }] })),
    ));
  });
  afterAll(() => fake?.close());

  it("keeps the first half's answers", async () => {
    await expectFirstHalfKept(db, queries);
  });

  it("still stops the source until the limit resets", async () => {
    const [cooldown] = await db.select().from(sourceCooldowns).where(eq(sourceCooldowns.source, "repo"));
    expect(cooldown.until.getTime()).toBeGreaterThan(Date.now() + 3_000_000);
    expect(cooldown.reason).toMatch(/rate limit/i);
  });

  it("leaves the second half without an observation", async () => {
    for (const name of queries.at(-1)!) expect((await observationOf(db, `acme/${name}`))?.observedAt ?? null).toBeNull();
  });
});
