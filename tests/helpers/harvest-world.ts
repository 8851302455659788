import type { Db } from "@/lib/db/client";
import { startFakeUpstreams, type FakeUpstreams } from "@/scripts/fake-upstreams/server";
import { generateWorld, type GeneratedWorld } from "@/scripts/fake-upstreams/generate";
import { loadFixtureCatalog } from "./catalog-fixture";
import { resetDb } from "./db";

/** Fake upstreams on a random loopback port, filled with a generated world, with the env pointing at them. */
export async function startWorld(servers: number, seed = 1, latencyMs = 0): Promise<{ fake: FakeUpstreams; world: GeneratedWorld }> {
  const fake = await startFakeUpstreams({ latencyMs });
  fake.applyEnv();
  const world = generateWorld(fake, servers, seed);
  return { fake, world };
}

/** Fast retries for tests: faults are answered at once, not after production backoff. */
// The fakes answer at once; a generous timeout only matters when the machine is loaded (a test's own database work
// on the same thread, other files on the two cores), where 2 s made a clean run "partial" on a timed-out answer.
// Tests of timeouts set their own.
export const TEST_HTTP = { retries: 1, backoffMs: 5, timeoutMs: 15_000, maxRetryAfterMs: 1_000 };

/**
 * Empty fake upstreams with the env pointing at them, and a fresh test database holding `listings`: the start of a
 * test that then tells each upstream what to answer and harvests.
 */
export async function startFakeCatalog(listings: Parameters<typeof loadFixtureCatalog>[1]): Promise<{ fake: FakeUpstreams; db: Db }> {
  const fake = await startFakeUpstreams({});
  fake.applyEnv();
  const db = await resetDb();
  await loadFixtureCatalog(db, listings);
  return { fake, db };
}
