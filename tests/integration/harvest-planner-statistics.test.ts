import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { runHarvest } from "@/lib/harvest/run-harvest";
import { sqlRows } from "@/lib/reports/sql-rows";
import type { FakeUpstreams } from "@/scripts/fake-upstreams/server";
import { resetDb } from "../helpers/db";
import { startWorld, TEST_HTTP } from "../helpers/harvest-world";

const rows = <T>(db: Db, statement: string) => sqlRows<T>(db, sql.raw(statement));

/** The planner's row estimate of a statement (EXPLAIN's top node), on PGlite and Postgres alike. */
async function estimatedRows(db: Db, statement: string): Promise<number> {
  const [row] = await rows<Record<string, unknown>>(db, `explain (format json) ${statement}`);
  const plan = Object.values(row)[0];
  const [top] = (typeof plan === "string" ? JSON.parse(plan) : plan) as { Plan: { "Plan Rows": number } }[];
  return top.Plan["Plan Rows"];
}

// Every due query and evidence read picks each server's described version from server_versions. A run that left it
// without statistics had the planner guess hundreds of versions a server: on Postgres the evidence read of an OSV
// chunk (1,000 look-ups) was then costed past jit_above_cost and JIT-compiled, ~0.4 s each before and after every
// chunk's write (tests/integration/harvest-batching.test.ts spent half its database time there).
describe("a harvest run leaves the planner statistics of the catalog its queries read", () => {
  let fake: FakeUpstreams;
  let db: Db;

  beforeAll(async () => {
    ({ fake } = await startWorld(400, 3));
    db = await resetDb();
  }, 120_000);
  afterAll(() => fake?.close());

  it("server_versions: the versions of one server are estimated as the few they are", async () => {
    const r = await runHarvest(db, { trigger: "test", http: TEST_HTTP, sources: ["registry"] });
    expect(r.status, JSON.stringify(r.errors.slice(0, 3))).toBe("succeeded");
    const [{ id }] = await rows<{ id: number }>(db, "select min(server_id)::int as id from server_versions");
    expect(await estimatedRows(db, `select id from server_versions where server_id = ${Number(id)}`)).toBeLessThanOrEqual(2);
  }, 120_000);
});
