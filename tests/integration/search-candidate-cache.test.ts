import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Db } from "@/lib/db/client";
import { registrySyncs, servers } from "@/lib/db/schema";
import { listingVersion } from "@/lib/search/candidate-cache";
import { noteCatalogWrite } from "@/lib/cache/db-memo";
import { rankServers } from "@/lib/services/search-servers";
import { resetDb } from "../helpers/db";
import { listing, loadFixtureCatalog } from "../helpers/catalog-fixture";

const T0 = new Date("2026-03-10T12:00:00.000Z");
const WEATHER = "io.github.acme/weather";

let db: Db;
beforeEach(async () => {
  vi.useFakeTimers({ toFake: ["Date"], now: T0 });
  db = await resetDb();
  await loadFixtureCatalog(db);
});
afterEach(() => {
  vi.useRealTimers();
  delete process.env.SEARCH_CACHE_SECONDS;
});

const names = async (q: string) => (await rankServers(db, { q, limit: 20 }, new Date())).results.map((r) => r.server_name);
// what a harvest cron in another process leaves behind: the listing changed, a succeeded sync recorded, and
// nothing announced to this process
const retitleByHand = (title: string) => db.update(servers).set({ title }).where(eq(servers.name, WEATHER));
const syncElsewhere = (status = "succeeded") =>
  db.insert(registrySyncs).values({ source: "api", origin: "another process", complete: false, status, startedAt: new Date(), finishedAt: new Date() });
const later = (ms: number) => vi.setSystemTime(new Date(Date.now() + ms));

describe("search candidates kept per listing", () => {
  it("names the listing by its newest succeeded sync; a failed one changes nothing", async () => {
    const first = await listingVersion(db);
    expect(first).toBeGreaterThan(0);
    await syncElsewhere("failed");
    expect(await listingVersion(db)).toBe(first);
    await syncElsewhere();
    expect(await listingVersion(db)).toBeGreaterThan(first);
  });

  it("keeps a query's candidates while the listing stands, and ranks them afresh once another process records a new one", async () => {
    expect(await names("thunderstorm")).toEqual([]);
    await retitleByHand("Thunderstorm");
    // the same listing as far as this process knows: the kept (empty) candidates answer
    later(5_000);
    expect(await names("thunderstorm")).toEqual([]);
    // another process's ingest recorded its sync: within a second the query is ranked again
    await syncElsewhere();
    later(1_001);
    expect(await names("thunderstorm")).toEqual([WEATHER]);
  });

  it("ranks again at once after this process's own ingest", async () => {
    expect(await names("hailstorm")).toEqual([]);
    await loadFixtureCatalog(db, [listing({ name: "io.github.acme/hailstorm" })]);
    expect(await names("hailstorm")).toEqual(["io.github.acme/hailstorm"]);
  });

  it("keeps the rankings through evidence writes (a harvest chunk, a refresh), which leave the listing as it is", async () => {
    expect(await names("thunderstorm")).toEqual([]);
    await retitleByHand("Thunderstorm");
    noteCatalogWrite(db); // what a harvest chunk or a liveness refresh announces
    expect(await names("thunderstorm")).toEqual([]); // the same listing version: the kept ranking
  });

  it("sees a hand edit of the listing, made without an ingest, within the hour", async () => {
    expect(await names("thunderstorm")).toEqual([]);
    await retitleByHand("Thunderstorm");
    later(59 * 60_000);
    expect(await names("thunderstorm")).toEqual([]);
    later(61_000);
    expect(await names("thunderstorm")).toEqual([WEATHER]);
  });

  it("keeps nothing when search caching is off (SEARCH_CACHE_SECONDS=0)", async () => {
    process.env.SEARCH_CACHE_SECONDS = "0";
    expect(await names("thunderstorm")).toEqual([]);
    await retitleByHand("Thunderstorm");
    expect(await names("thunderstorm")).toEqual([WEATHER]);
  });
});
