import { describe, expect, it, vi } from "vitest";
import { and, eq } from "drizzle-orm";
import { ingestEntries } from "@/lib/catalog/ingest-entries";
import { observeRemotes } from "@/lib/harvest/observe-remotes";
import { changes, repositories, repositoryObservations } from "@/lib/db/schema";
import { resetDb } from "../helpers/db";
import { listing } from "../helpers/catalog-fixture";

// The second evidence read of the first writer (its "after") waits, up to a second, for the other writer to commit.
const gate = vi.hoisted(() => ({ calls: 0, firstWaiting: () => {}, otherDone: Promise.resolve() as Promise<unknown> }));
vi.mock("@/lib/harvest/load-server-evidence", async (original) => {
  const m = await original<typeof import("@/lib/harvest/load-server-evidence")>();
  return {
    ...m,
    loadServerEvidence: async (...args: Parameters<typeof m.loadServerEvidence>) => {
      if (++gate.calls === 2) {
        gate.firstWaiting();
        await Promise.race([gate.otherDone, new Promise((r) => setTimeout(r, 1000))]);
      }
      return m.loadServerEvidence(...args);
    },
  };
});
vi.mock("@/lib/sources/liveness", async (original) => ({
  ...(await original<typeof import("@/lib/sources/liveness")>()),
  probeListedRemote: async (_url: string, types: string[]) => ({ outcome: "down", type: types[0], httpStatus: 503, error: "HTTP 503" }),
}));

describe("two writers observing one server at once", () => {
  // Transactions run one at a time on PGlite; on Postgres they interleave.
  it.skipIf(process.env.TEST_DB !== "postgres")("record its health transition once", async () => {
    const db = await resetDb();
    const name = "io.github.x/two-remotes";
    const [u1, u2] = ["https://one.example/mcp", "https://two.example/mcp"];
    const repo = { url: "https://github.com/x/two-remotes", source: "github" };
    await ingestEntries(db, [listing({ name, repository: repo, remotes: [{ type: "streamable-http", url: u1 }, { type: "streamable-http", url: u2 }] })], {
      source: "api",
      origin: "test",
      complete: true,
      observedAt: new Date("2026-05-01T00:00:00Z"),
    });
    // a healthy server: its repository observed, no package to look up, its remotes not probed yet
    const [r] = await db.select().from(repositories);
    await db.insert(repositoryObservations).values({ repositoryId: r.id, exists: true, archived: false, httpStatus: 200, observedAt: new Date(), attemptedAt: new Date() });
    gate.calls = 0;
    const firstWaiting = new Promise<void>((r) => (gate.firstWaiting = r));
    let otherDone!: () => void;
    gate.otherDone = new Promise<void>((r) => (otherDone = r));
    const first = observeRemotes(db, [u1]);
    await firstWaiting;
    const other = observeRemotes(db, [u2]).then(otherDone);
    await Promise.all([first, other]);

    const health = await db.select().from(changes).where(and(eq(changes.serverName, name), eq(changes.kind, "health_change")));
    expect(health.map((h) => [h.before, h.after])).toEqual([[{ health: "healthy", problems: [] }, { health: "issues", problems: ["remote_down"] }]]);
    expect(await db.select().from(changes).where(and(eq(changes.serverName, name), eq(changes.kind, "remote_down")))).toHaveLength(2);
  });
});
