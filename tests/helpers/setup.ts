import { afterAll, vi } from "vitest";
import { closeDb } from "@/lib/db/client";
import { configureTestDatabase } from "./db";
import { letPgliteQueriesTurnTheEventLoop } from "./pglite-event-loop";

// Fake upstreams listen on loopback; outbound requests reach only public
// addresses unless this test-only allow-list says otherwise (lib/net).
process.env.OUTBOUND_ALLOW_HOSTS ??= "127.0.0.1";

await configureTestDatabase();
if (process.env.TEST_DB === "pglite") await letPgliteQueriesTurnTheEventLoop();

// Integration files share a worker's modules and process (vitest.config.ts: isolate false), so what one file
// sets must not reach the next: its environment variables are put back and its spies and fake timers undone.
// This hook is registered first, so it runs after the file's own afterAll hooks.
const envAtStart = { ...process.env };

afterAll(async () => {
  await closeDb();
  vi.useRealTimers();
  vi.restoreAllMocks();
  for (const name of Object.keys(process.env)) if (!(name in envAtStart)) delete process.env[name];
  Object.assign(process.env, envAtStart);
});
