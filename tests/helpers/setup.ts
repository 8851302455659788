import { afterAll } from "vitest";
import { closeDb } from "@/lib/db/client";
import { configureTestDatabase } from "./db";

// Fake upstreams listen on loopback; outbound requests reach only public
// addresses unless this test-only allow-list says otherwise (lib/net).
process.env.OUTBOUND_ALLOW_HOSTS ??= "127.0.0.1";

await configureTestDatabase();

afterAll(async () => {
  await closeDb();
});
