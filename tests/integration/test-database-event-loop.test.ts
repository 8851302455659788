import { expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";

// Vitest's worker reads the main process's answers only when the event loop turns, and gives each one 60 s: a
// file whose awaits were all in-process PGlite queries went minutes without a turn on a loaded machine and failed
// the run ("Timeout calling onTaskUpdate") with every test passing (tests/helpers/pglite-event-loop.ts). A query
// to the Postgres server turns it by reading its socket; a PGlite query must do as much.
it("turns the event loop during a chain of queries, on PGlite as on the Postgres server", async () => {
  const db = await getDb();
  let turned = false;
  setImmediate(() => (turned = true));
  for (let i = 0; i < 5 && !turned; i++) await db.execute(sql`select 1`);
  expect(turned).toBe(true);
});
