import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { sql } from "drizzle-orm";
import { GET as badgeGet } from "@/app/badge/[...name]/route";
import type { Db } from "@/lib/db/client";
import { resetDb } from "../helpers/db";
import { loadFixtureCatalog, request } from "../helpers/catalog-fixture";

// drizzle's error for a failed statement reads "Failed query: <SQL> params: <values>": logged as err.message, the
// values (here the server name asked for) went to the log with it. The log says the database's reason and the
// statement's first words instead (errorMessage, lib/db/query-error.ts), as the rest of the code does.
let db: Db;
let errors: string[];
beforeEach(async () => {
  db = await resetDb();
  await loadFixtureCatalog(db);
  errors = [];
  vi.spyOn(console, "error").mockImplementation((...args) => void errors.push(args.join(" ")));
});
afterEach(() => {
  vi.restoreAllMocks();
});

const NAME = "io.github.acme/weather";

/** The fields of the one log line with this message (LOG_FORMAT json in tests, or text: both carry the fields). */
function logLine(msg: string): Record<string, string> {
  const lines = errors.filter((l) => l.includes(msg));
  expect(lines, msg).toHaveLength(1);
  return JSON.parse(lines[0]);
}

describe("a database failure's log line", () => {
  it("from the badge names the database's reason, never the statement's values", async () => {
    await db.execute(sql`alter table servers rename to servers_away`);
    try {
      const res = await badgeGet(request(`/badge/${NAME}.svg`), { params: Promise.resolve({ name: [...NAME.split("/").slice(0, -1), "weather.svg"] }) });
      expect(res.status).toBe(503);
    } finally {
      await db.execute(sql`alter table servers_away rename to servers`);
    }
    const line = logLine("badge failed");
    expect(line.name).toBe(NAME);
    expect(line.error).toMatch(/^relation "servers" does not exist \(in: select /);
    expect(line.error).not.toMatch(/Failed query|params:/);
    expect(line.error).not.toContain(NAME);
  });

});
