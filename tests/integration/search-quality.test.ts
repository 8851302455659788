import { beforeAll, describe, expect, it } from "vitest";
import { isNull, sql } from "drizzle-orm";
import { readDumpFile } from "@/lib/catalog/read-dump";
import { ingestDump } from "@/lib/catalog/ingest-dump";
import { servers } from "@/lib/db/schema";
import type { Db } from "@/lib/db/client";
import { foldName, foldNameSql } from "@/lib/facts/fold-name";
import { rankServers } from "@/lib/services/search-servers";
import { searchKey } from "@/lib/search/search-key";
import { resetDb } from "../helpers/db";
import { hasSharedData, largestSnapshot } from "../helpers/shared-data";
import { oneTypo, sample, seededRandom } from "../helpers/typo";


describe.skipIf(!hasSharedData)("search quality over every server of the largest shared snapshot", () => {
  let db: Db;
  let listed: { name: string; part: string; fold: string }[];

  beforeAll(async () => {
    db = await resetDb();
    const file = largestSnapshot()!;
    await ingestDump(db, await readDumpFile(file), file);
    listed = (await db.select({ name: servers.name, part: servers.serverPart, fold: servers.nameFold }).from(servers).where(isNull(servers.delistedAt)))
      // code-unit order, the same on every database whatever its collation, so the sample is too
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  });

  it("folds every name part in SQL (the generated name_fold column) exactly as foldName does", async () => {
    expect(listed.length).toBeGreaterThan(500);
    const wrong = listed.filter((r) => r.fold !== foldName(r.part));
    expect(wrong).toEqual([]);
    // and the Cyrillic and digit homoglyphs the snapshot lacks fold the same way in Postgres
    for (const s of ["weathеr-mcp", "S1ack_Tools", "modern.vvidget", "Gооgle"]) {
      const res = (await db.execute(sql`select ${sql.raw(foldNameSql(`'${s}'::text`))} as f`)) as unknown as
        | { rows: { f: string }[] }
        | { f: string }[];
      const rows = Array.isArray(res) ? res : res.rows;
      expect(rows[0].f, s).toBe(foldName(s));
    }
  });

  it("returns the exact-name server first for every one of its names", { timeout: 600_000 }, async () => {
    const misses: string[] = [];
    for (const { name } of listed) {
      const r = await rankServers(db, { q: name, limit: 1 }, new Date());
      if (r.results[0]?.server_name !== name || r.results[0]?.match !== "exact_name") misses.push(name);
    }
    expect(misses).toEqual([]);
  });

  it("finds a vendor's server whose name part is only generic words by its owner, typos included, official first", async () => {
    const owned = listed.filter((r) => searchKey(r.part) === "" && !r.name.startsWith("io.github."));
    expect(owned.length, "the snapshot has vendor servers named like com.notion/mcp").toBeGreaterThan(20);
    const misses: string[] = [];
    const notFirst: string[] = [];
    for (const r of owned) {
      const owner = r.name.split(".")[1].split("/")[0];
      if (owner.length < 4) continue;
      // the owner as typed, then with two neighbouring letters swapped
      const exact = await rankServers(db, { q: owner, limit: 5 }, new Date());
      if (!exact.results.some((c) => c.server_name === r.name)) misses.push(owner);
      // when the owner itself is the query, a server whose owner it is comes before other servers' name matches
      const ownedByQuery = (name: string) => name.split(".")[1].split("/")[0] === owner && searchKey(name.split("/")[1]) === "";
      if (exact.results[0] && !ownedByQuery(exact.results[0].server_name)) notFirst.push(`${owner} → ${exact.results[0].server_name}`);
      const typo = owner.slice(0, 2) + owner[3] + owner[2] + owner.slice(4);
      const typed = await rankServers(db, { q: typo, limit: 5 }, new Date());
      if (!typed.results.some((c) => c.server_name === r.name)) misses.push(typo);
    }
    expect(misses).toEqual([]);
    expect(notFirst).toEqual([]);
    for (const [q, name] of [["notoin", "com.notion/mcp"], ["strpe", "com.stripe/mcp"], ["clodflare", "com.cloudflare.mcp/mcp"]]) {
      if (!listed.some((r) => r.name === name)) continue;
      const res = await rankServers(db, { q, limit: 5 }, new Date());
      expect(res.results.map((c) => c.server_name), q).toContain(name);
    }
  });

  it("finds a server from a one-typo query of its name part in the top 5 for at least 90% of 200 sampled names", { timeout: 600_000 }, async () => {
    const rnd = seededRandom(6);
    const picked = sample(listed, 200, rnd);
    const groupSize = new Map<string, number>();
    for (const r of listed) groupSize.set(r.fold, (groupSize.get(r.fold) ?? 0) + 1);
    let found = 0;
    let distinct = 0;
    let distinctFound = 0;
    const misses: string[] = [];
    for (const r of picked) {
      const q = oneTypo(r.part, rnd);
      const res = await rankServers(db, { q: q.trim().length >= 2 ? q : r.part, limit: 5 }, new Date());
      const hit = res.results.some((c) => c.server_name === r.name);
      if (hit) found++;
      else misses.push(`${JSON.stringify(q)} → ${r.name}`);
      // a name part shared by more than 5 listed servers cannot be put in a top 5 by any ranking
      if (groupSize.get(r.fold)! <= 5) {
        distinct++;
        if (hit) distinctFound++;
      }
    }
    console.log(
      `[search quality] one-typo top-5: ${found}/200 = ${(found / 2).toFixed(1)}%; names shared by at most 5 servers: ${distinctFound}/${distinct}; misses: ${misses.join("; ")}`,
    );
    expect(found / picked.length).toBeGreaterThanOrEqual(0.9);
  });
});
