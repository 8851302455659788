import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { changes, watchDeliveries } from "@/lib/db/schema";
import { ingestEntries } from "@/lib/catalog/ingest-entries";
import { loadFacts } from "@/lib/facts/load-facts";
import { runHarvest } from "@/lib/harvest/run-harvest";
import type { FakeUpstreams } from "@/scripts/fake-upstreams/server";
import { keyedAccount, listing } from "../helpers/catalog-fixture";
import { startFakeCatalog, TEST_HTTP } from "../helpers/harvest-world";
import { insertWatch } from "../helpers/watch-fixture";

// The liveness harvester records remote_down when a probe sees an endpoint go down (up or never observed before).
// A server whose new version starts listing a URL another server's probe already saw down got no remote_down at
// all: the next probe sees it down again, which is no transition. Its card showed the remote down at once, and a
// health_change said so, but a watcher of remote_down never heard of it. The listing's change detection now
// records it (lib/harvest/state-changes.ts), with the probe's HTTP status.

const OWNER = "io.github.owner/shared-endpoint";
const WATCHED = "io.github.watched/server";
const HOUR = 3_600_000;
const incremental = (observedAt: Date) => ({ source: "api" as const, origin: "test", complete: false, observedAt });

describe("a remote URL newly listed by a server after a probe saw it down", () => {
  let fake: FakeUpstreams;
  let db: Db;
  let shared: string;
  let own: string;
  let fresh: string;
  let watchId: string;
  let now = Date.parse("2026-03-03T00:00:00Z");
  const harvest = () => runHarvest(db, { trigger: "test", http: TEST_HTTP, clock: () => new Date(now), sources: ["liveness"] });
  const changesOf = async (name: string, kind?: string) =>
    db
      .select()
      .from(changes)
      .where(and(eq(changes.serverName, name), kind ? eq(changes.kind, kind) : undefined))
      .orderBy(asc(changes.id));

  beforeAll(async () => {
    ({ fake, db } = await startFakeCatalog([]));
    shared = `${fake.url}/mcp/shared`;
    own = `${fake.url}/mcp/own`;
    fresh = `${fake.url}/mcp/fresh`;
    await ingestEntries(
      db,
      [
        listing({ name: OWNER, remotes: [{ type: "streamable-http", url: shared }] }),
        listing({ name: WATCHED, remotes: [{ type: "streamable-http", url: own }] }),
      ],
      incremental(new Date(now)),
    );
    fake.mcp.set("shared", { tools: [{ name: "t", description: "a tool" }], status: 503 });
    fake.mcp.set("own", { tools: [{ name: "t", description: "a tool" }] });
    fake.mcp.set("fresh", { tools: [{ name: "t", description: "a tool" }] });
    await harvest();
    const { accountId } = await keyedAccount(db);
    watchId = (await insertWatch(db, { accountId, serverName: WATCHED, webhookUrl: "https://hooks.example.test/w", events: ["remote_down", "remote_up"] })).id;
  });
  afterAll(() => fake?.close());

  it("the probe recorded it down for the server that listed it then, and nothing for the other", async () => {
    expect((await changesOf(OWNER, "remote_down")).map((c) => [c.before, c.after])).toEqual([
      [{ url: shared, live: null, http_status: null }, { url: shared, live: false, http_status: 503 }],
    ]);
    expect(await changesOf(WATCHED, "remote_down")).toEqual([]);
  });

  it("records remote_down for the server whose new version lists it, with the probe's status, and its watcher gets it", async () => {
    now += HOUR;
    // a new version adds the down URL and one never probed (unknown: no change for it)
    await ingestEntries(
      db,
      [
        listing(
          {
            name: WATCHED,
            version: "2.0.0",
            remotes: [
              { type: "streamable-http", url: own },
              { type: "streamable-http", url: shared },
              { type: "sse", url: shared },
              { type: "streamable-http", url: fresh },
            ],
          },
          { publishedAt: "2026-03-03T00:30:00Z", updatedAt: "2026-03-03T00:30:00Z" },
        ),
      ],
      incremental(new Date(now)),
    );
    const facts = (await loadFacts(db, WATCHED))!;
    expect(facts.remotes.find((r) => r.url === shared)?.live).toBe(false);

    const all = await changesOf(WATCHED);
    const down = all.filter((c) => c.kind === "remote_down");
    // one record for the URL, though the version lists it once per transport
    expect(down.map((c) => [c.before, c.after])).toEqual([[{ url: shared, live: null, http_status: null }, { url: shared, live: false, http_status: 503 }]]);
    expect(down[0].observedAt.toISOString()).toBe(new Date(now).toISOString());
    // the cause is recorded before the health change it explains
    const health = all.filter((c) => c.kind === "health_change");
    expect(health.at(-1)!.after).toMatchObject({ problems: expect.arrayContaining(["remote_down"]) });
    expect(down[0].id).toBeLessThan(health.at(-1)!.id);

    const deliveries = await db.select().from(watchDeliveries).where(eq(watchDeliveries.watchId, watchId));
    expect(deliveries.map((d) => [d.kind, d.changeId])).toEqual([["remote_down", down[0].id]]);
  });

  it("records no second remote_down when the next probe sees it down again, and remote_up for both servers when it answers", async () => {
    now += 7 * HOUR;
    await harvest();
    expect(await changesOf(WATCHED, "remote_down")).toHaveLength(1);
    expect(await changesOf(OWNER, "remote_down")).toHaveLength(1);

    fake.mcp.set("shared", { tools: [{ name: "t", description: "a tool" }] });
    now += 7 * HOUR;
    await harvest();
    for (const name of [OWNER, WATCHED]) {
      expect((await changesOf(name, "remote_up")).map((c) => c.after)).toEqual([expect.objectContaining({ url: shared, live: true, http_status: 200 })]);
    }
  });
});
