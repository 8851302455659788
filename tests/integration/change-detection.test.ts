import { describe, expect, it } from "vitest";
import { asc } from "drizzle-orm";
import { ingestEntries } from "@/lib/catalog/ingest-entries";
import { changes } from "@/lib/db/schema";
import type { Db } from "@/lib/db/client";
import { resetDb } from "../helpers/db";
import { listing } from "../helpers/catalog-fixture";

const incremental = (observedAt: string) => ({ source: "api" as const, origin: "test", complete: false, observedAt: new Date(observedAt) });
const records = async (db: Db) =>
  (await db.select().from(changes).orderBy(asc(changes.id))).map((c) => ({ kind: c.kind, before: c.before, after: c.after }));

describe("registry change records of a server first seen through a non-latest row", () => {
  const remotes = [{ type: "streamable-http", url: "https://a.example/mcp" }];
  const name = "io.github.x/first-seen-old";

  it("records no endpoint_moved when its first latest row lists the remotes server_new reported", async () => {
    const db = await resetDb();
    await ingestEntries(db, [listing({ name, version: "1.0.0", remotes }, { isLatest: false, updatedAt: "2026-05-01T00:00:00Z" })], incremental("2026-05-01T01:00:00Z"));
    expect(await records(db)).toEqual([
      { kind: "server_new", before: null, after: expect.objectContaining({ version: "1.0.0", remotes: ["https://a.example/mcp"] }) },
    ]);
    await ingestEntries(db, [listing({ name, version: "2.0.0", remotes }, { updatedAt: "2026-05-02T00:00:00Z" })], incremental("2026-05-02T01:00:00Z"));
    expect((await records(db)).map((r) => r.kind)).toEqual(["server_new"]);
  });

  it("records endpoint_moved from the remotes server_new reported when the latest row lists others", async () => {
    const db = await resetDb();
    await ingestEntries(db, [listing({ name, version: "1.0.0", remotes }, { isLatest: false, updatedAt: "2026-05-01T00:00:00Z" })], incremental("2026-05-01T01:00:00Z"));
    const moved = [{ type: "streamable-http", url: "https://b.example/mcp" }];
    await ingestEntries(db, [listing({ name, version: "2.0.0", remotes: moved }, { updatedAt: "2026-05-02T00:00:00Z" })], incremental("2026-05-02T01:00:00Z"));
    expect((await records(db)).slice(1)).toEqual([
      { kind: "endpoint_moved", before: { remotes: ["https://a.example/mcp"] }, after: { remotes: ["https://b.example/mcp"] } },
    ]);
  });
});
