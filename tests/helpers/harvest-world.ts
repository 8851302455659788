import { startFakeUpstreams, type FakeUpstreams } from "@/scripts/fake-upstreams/server";
import { generateWorld, type GeneratedWorld } from "@/scripts/fake-upstreams/generate";

/** Fake upstreams on a random loopback port, filled with a generated world, with the env pointing at them. */
export async function startWorld(servers: number, seed = 1, latencyMs = 0): Promise<{ fake: FakeUpstreams; world: GeneratedWorld }> {
  const fake = await startFakeUpstreams({ latencyMs });
  fake.applyEnv();
  const world = generateWorld(fake, servers, seed);
  return { fake, world };
}

/** Fast retries for tests: faults are answered at once, not after production backoff. */
export const TEST_HTTP = { retries: 1, backoffMs: 5, timeoutMs: 2_000, maxRetryAfterMs: 1_000 };
