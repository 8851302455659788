import { beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { POST as auditPost } from "@/app/v1/audit/route";
import { POST as resolvePost } from "@/app/v1/resolve/route";
import { ingestEntries } from "@/lib/catalog/ingest-entries";
import type { Db } from "@/lib/db/client";
import { remoteObservations, servers } from "@/lib/db/schema";
import { loadFacts } from "@/lib/facts/load-facts";
import { auditResultSchema, resolveResultSchema } from "@/lib/schemas/config-audit";
import { computeCoverage } from "@/lib/services/get-coverage";
import { resetDb } from "../helpers/db";
import { listing, request } from "../helpers/catalog-fixture";

// A server has one version whose listing describes it: its latest, else, for a server the catalog has seen only
// through non-latest rows (an incremental crawl), the one lib/facts/described-version.ts picks. Its card and the
// audit's verdict read that version's packages and remotes. Coverage counted only latest versions' artifacts and
// config resolution matched only latest versions' packages and URLs, so such a server's packages were missing from
// coverage and an entry running its package (or calling its URL) was unresolved though its card names them.
// Older versions and delisted servers must stay out of both.

const SEEN_OLD = "io.github.acme/seen-through-old-rows";
const WITH_LATEST = "io.github.bob/with-latest";
const DELISTED = "io.github.carol/delisted";
const npm = (identifier: string, version = "1.0.0") => ({ registryType: "npm", identifier, version, transport: { type: "stdio" } });
const remote = (url: string) => ({ type: "streamable-http", url });
const at = (iso: string) => new Date(iso);
const complete = (observedAt: string) => ({ source: "api" as const, origin: "test", complete: true, observedAt: at(observedAt) });
const incremental = (observedAt: string) => ({ source: "api" as const, origin: "test", complete: false, observedAt: at(observedAt) });

const URLS = {
  seenOld: "https://old.acme.example/mcp",
  seenDescribed: "https://described.acme.example/mcp",
  bobOld: "https://old.bob.example/mcp",
  bobLatest: "https://bob.example/mcp",
  carol: "https://carol.example/mcp",
};

const BOB = [
  listing({ name: WITH_LATEST, version: "1.0.0", packages: [npm("bob-old-pkg")], remotes: [remote(URLS.bobOld)] }, { isLatest: false, publishedAt: "2026-01-01T00:00:00Z" }),
  listing({ name: WITH_LATEST, version: "2.0.0", packages: [npm("bob-pkg", "2.0.0")], remotes: [remote(URLS.bobLatest)] }),
];

let db: Db;
beforeEach(async () => {
  db = await resetDb();
  const carol = listing({ name: DELISTED, packages: [npm("carol-pkg")], remotes: [remote(URLS.carol)] });
  await ingestEntries(db, [...BOB, carol], complete("2026-03-01T01:00:00Z"));
  // a complete listing without carol's server delists it
  await ingestEntries(db, BOB, complete("2026-03-02T01:00:00Z"));
  // a server the catalog sees only through non-latest rows: described by the most recently published one
  await ingestEntries(
    db,
    [
      listing({ name: SEEN_OLD, version: "0.9.0", packages: [npm("seen-old-pkg", "0.9.0")], remotes: [remote(URLS.seenOld)] }, { isLatest: false, publishedAt: "2026-02-01T00:00:00Z" }),
      listing({ name: SEEN_OLD, version: "1.0.0", packages: [npm("seen-described-pkg")], remotes: [remote(URLS.seenDescribed)] }, { isLatest: false, publishedAt: "2026-02-15T00:00:00Z" }),
    ],
    incremental("2026-03-03T01:00:00Z"),
  );
  const rows = await db.select({ name: servers.name, latest: servers.latestVersionId, delistedAt: servers.delistedAt }).from(servers);
  expect(Object.fromEntries(rows.map((r) => [r.name, [r.latest !== null, r.delistedAt !== null]]))).toEqual({
    [SEEN_OLD]: [false, false],
    [WITH_LATEST]: [true, false],
    [DELISTED]: [true, true],
  });
  // what the cards name: the reads below must agree with them
  const seen = (await loadFacts(db, SEEN_OLD))!;
  expect(seen.packages.map((p) => p.identifier)).toEqual(["seen-described-pkg"]);
  expect(seen.remotes.map((r) => r.url)).toEqual([URLS.seenDescribed]);
});

describe("GET /v1/coverage counts the described versions of listed servers", () => {
  it("counts the packages and remotes of a server without a latest, and none of older versions or delisted servers", async () => {
    const t = at("2026-03-03T02:00:00Z");
    await db.insert(remoteObservations).values([
      { url: URLS.seenDescribed, type: "streamable-http", live: false, httpStatus: 503, observedAt: t, attemptedAt: t },
      { url: URLS.bobLatest, type: "streamable-http", live: true, httpStatus: 200, observedAt: t, attemptedAt: t },
      // observations of URLs no described listed version names are not counted
      { url: URLS.bobOld, type: "streamable-http", live: false, httpStatus: 500, observedAt: t, attemptedAt: t },
      { url: URLS.carol, type: "streamable-http", live: false, httpStatus: 500, observedAt: t, attemptedAt: t },
    ]);
    const report = await computeCoverage(db, at("2026-03-03T03:00:00Z"));
    expect(report.census).toMatchObject({ servers_listed: 2, servers_delisted: 1, packages: { jspkg: 2 }, remotes: 2 });
    expect(report.sources.jspkg).toMatchObject({ items: 2, observed: 0, never_attempted: 2 });
    expect(report.sources.vuln).toMatchObject({ items: 2 });
    expect(report.sources.liveness).toMatchObject({ items: 2, observed: 2, live: 1, down: 1 });
  });
});

const config = (entries: Record<string, unknown>) => JSON.stringify({ mcpServers: entries });
const ENTRIES = {
  "described-pkg": { command: "npx", args: ["-y", "seen-described-pkg"] },
  "described-url": { type: "http", url: URLS.seenDescribed },
  "older-pkg": { command: "npx", args: ["-y", "seen-old-pkg"] },
  "older-url": { type: "http", url: URLS.seenOld },
  "bob-pkg": { command: "npx", args: ["-y", "bob-pkg"] },
  "bob-old-pkg": { command: "npx", args: ["-y", "bob-old-pkg"] },
  "carol-pkg": { command: "npx", args: ["-y", "carol-pkg"] },
};
const EXPECTED = [
  ["described-pkg", SEEN_OLD],
  ["described-url", SEEN_OLD],
  ["older-pkg", null],
  ["older-url", null],
  ["bob-pkg", WITH_LATEST],
  ["bob-old-pkg", null],
  ["carol-pkg", null],
];

describe("config resolution matches the packages and remotes of the described version", () => {
  it("POST /v1/resolve resolves a server without a latest by its described package and URL, not by an older version's", async () => {
    const res = await resolvePost(request("/v1/resolve", { method: "POST", body: config(ENTRIES) }));
    expect(res.status, await res.clone().text()).toBe(200);
    const body = resolveResultSchema.parse(await res.json());
    expect(body.entries.map((e) => [e.key, e.server_name])).toEqual(EXPECTED);
    expect(body.entries.find((e) => e.key === "described-pkg")).toMatchObject({ resolved_by: "jspkg", identifier: "seen-described-pkg" });
    expect(body.entries.find((e) => e.key === "described-url")).toMatchObject({ resolved_by: "remote_url", identifier: URLS.seenDescribed });
  });

  it("POST /v1/audit resolves the same entries and judges the server by the card's evidence", async () => {
    const res = await auditPost(request("/v1/audit", { method: "POST", body: config(ENTRIES), ip: "198.18.7.7" }));
    expect(res.status, await res.clone().text()).toBe(200);
    const body = auditResultSchema.parse(await res.json());
    expect(body.entries.map((e) => [e.key, e.server_name])).toEqual(EXPECTED);
    // nothing about the described package was looked up: not a PASS, and not UNKNOWN (the server is known)
    const described = body.entries.find((e) => e.key === "described-pkg")!;
    expect(described.verdict).toBe("REVIEW");
    expect(body.entries.filter((e) => e.server_name === null).map((e) => e.verdict)).toEqual(["UNKNOWN", "UNKNOWN", "UNKNOWN", "UNKNOWN"]);
  });

  it("a server without a latest that is delisted is not matched, nor counted by coverage", async () => {
    await ingestEntries(db, BOB, complete("2026-03-04T01:00:00Z"));
    const [s] = await db.select({ delistedAt: servers.delistedAt }).from(servers).where(eq(servers.name, SEEN_OLD));
    expect(s.delistedAt).not.toBeNull();
    const res = await resolvePost(request("/v1/resolve", { method: "POST", body: config({ "described-pkg": ENTRIES["described-pkg"] }) }));
    const body = resolveResultSchema.parse(await res.json());
    expect(body.entries.map((e) => e.server_name)).toEqual([null]);
    const report = await computeCoverage(db, at("2026-03-04T02:00:00Z"));
    expect(report.census).toMatchObject({ servers_listed: 1, packages: { jspkg: 1 }, remotes: 1 });
  });
});
