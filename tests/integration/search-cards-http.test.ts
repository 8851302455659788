import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { GET as searchGet } from "@/app/v1/search/route";
import { GET as serverGet } from "@/app/v1/server/route";
import { GET as lookalikesGet } from "@/app/v1/lookalikes/route";
import { GET as statsGet } from "@/app/v1/stats/route";
import { GET as recentGet } from "@/app/v1/recent/route";
import { GET as coverageGet } from "@/app/v1/coverage/route";
import { GET as healthGet } from "@/app/v1/health/route";
import { GET as badgeGet } from "@/app/badge/[...name]/route";
import { POST as preflightPost } from "@/app/v1/preflight/route";
import { request } from "../helpers/catalog-fixture";
import { ingestDump } from "@/lib/catalog/ingest-dump";
import { packageObservations, remoteObservations, repositories, repositoryObservations, servers, vulnObservations } from "@/lib/db/schema";
import type { Db } from "@/lib/db/client";
import { clearReportMemo } from "@/lib/reports/memo";
import { clearSearchCache } from "@/lib/search/result-cache";
import { healthCardSchema, searchResultSchema, serverCardResponseSchema } from "@/lib/schemas/health-card";
import { coverageReportSchema, lookalikesResultSchema, recentResultSchema, statsReportSchema } from "@/lib/schemas/reports";
import { resetDb } from "../helpers/db";

// vitest sets BASE_URL=/ (Vite's base path), which siteUrl() would otherwise read
process.env.SITE_URL = "http://localhost:3000";

const T0 = new Date("2026-03-10T12:00:00.000Z");
const DAY = 86_400_000;
const ago = (days: number) => new Date(T0.getTime() - days * DAY);

function entry(name: string, o: { title?: string; description?: string; repo?: string; npm?: string; remote?: string; publishedDaysAgo?: number; status?: string } = {}) {
  const published = ago(o.publishedDaysAgo ?? 200).toISOString();
  return {
    server: {
      $schema: "https://static.modelcontextprotocol.io/schemas/2025-10-17/server.schema.json",
      name,
      description: o.description ?? `The ${name} server`,
      ...(o.title ? { title: o.title } : {}),
      version: "1.2.0",
      ...(o.repo ? { repository: { url: o.repo, source: "github" } } : {}),
      ...(o.npm ? { packages: [{ registryType: "npm", identifier: o.npm, version: "1.2.0", transport: { type: "stdio" } }] } : {}),
      ...(o.remote ? { remotes: [{ type: "streamable-http", url: o.remote }] } : {}),
    },
    _meta: { "io.modelcontextprotocol.registry/official": { status: o.status ?? "active", publishedAt: published, updatedAt: published, isLatest: true } },
  };
}

const WEATHER = "io.github.acme/weather-mcp";
const EVIL_WEATHER = "com.evil/weather-mcp";
const FOLDED_WEATHER = "io.github.someone/Weather_MCP";
const STRIPE_FAKE = "io.github.bob/str1pe-payments";
const FORECAST = "io.github.acme/forecast-tools";
const ARCHIVED = "io.github.acme/archived-thing";
const GONE = "io.github.old/gone-server";

const FIXTURE = [
  entry(WEATHER, {
    title: "Weather",
    description: "Forecasts for cities",
    repo: "https://github.com/acme/weather-mcp",
    npm: "@acme/weather-mcp",
    remote: "https://weather.acme.example/mcp",
    publishedDaysAgo: 200,
  }),
  entry(EVIL_WEATHER, { description: "Weather data", repo: "https://github.com/evil/weather", publishedDaysAgo: 5 }),
  entry(FOLDED_WEATHER, { description: "Yet another weather server", publishedDaysAgo: 4 }),
  entry(STRIPE_FAKE, { title: "Official Stripe payments", description: "Take payments", publishedDaysAgo: 3 }),
  entry(FORECAST, { description: "Severe storm alerts for farmers", repo: "https://github.com/acme/forecast-tools", publishedDaysAgo: 2 }),
  entry(ARCHIVED, { description: "Old thing", repo: "https://github.com/acme/archived-thing", publishedDaysAgo: 1 }),
];

let db: Db;

async function seed() {
  await ingestDump(db, [...FIXTURE, entry(GONE, { publishedDaysAgo: 300 })], "fixture-1.json", ago(1));
  // a second complete listing without GONE delists it
  await ingestDump(db, FIXTURE, "fixture-2.json", ago(0.5));
  const repoId = async (url: string) => (await db.select({ id: repositories.id }).from(repositories).where(eq(repositories.url, url)))[0].id;
  await db.insert(repositoryObservations).values([
    {
      repositoryId: await repoId("https://github.com/acme/weather-mcp"),
      exists: true,
      archived: false,
      pushedAt: ago(10),
      stars: 1500,
      observedAt: ago(0.25),
      attemptedAt: ago(0.25),
    },
    { repositoryId: await repoId("https://github.com/acme/archived-thing"), exists: true, archived: true, pushedAt: ago(400), stars: 3, observedAt: ago(0.25), attemptedAt: ago(0.25) },
    { repositoryId: await repoId("https://github.com/acme/forecast-tools"), exists: false, httpStatus: 404, observedAt: ago(0.25), attemptedAt: ago(0.25) },
  ]);
  await db.insert(packageObservations).values({
    ecosystem: "jspkg",
    identifier: "@acme/weather-mcp",
    exists: true,
    latestVersion: "1.2.0",
    versions: { "1.2.0": {} },
    observedAt: ago(0.2),
    attemptedAt: ago(0.2),
  });
  await db.insert(vulnObservations).values({
    ecosystem: "jspkg",
    identifier: "@acme/weather-mcp",
    listedVersion: "1.2.0",
    queriedVersion: "1.2.0",
    advisories: [],
    observedAt: ago(0.1),
    attemptedAt: ago(0.1),
  });
  await db.insert(remoteObservations).values({ url: "https://weather.acme.example/mcp", type: "streamable-http", live: true, httpStatus: 200, observedAt: ago(0.05), attemptedAt: ago(0.05) });
}

const get = (handler: (req: Request, ctx?: never) => Promise<Response>, path: string, headers: Record<string, string> = {}) =>
  handler(new Request(`http://localhost${path}`, { headers: { "x-mcp-preflight-socket-ip": "198.51.100.20", ...headers } }));
const badge = (path: string, headers: Record<string, string> = {}) => {
  const segments = path.replace(/^\/badge\//, "").replace(/\?.*$/, "").split("/");
  return badgeGet(new Request(`http://localhost${path}`, { headers }), { params: Promise.resolve({ name: segments }) });
};

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ["Date"], now: T0 });
  db = await resetDb();
  clearReportMemo(db);
  clearSearchCache(db);
  await seed();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("GET /v1/server", () => {
  it("answers the HealthCard of an exact name, every field computed from the evidence", async () => {
    const res = await get(serverGet, `/v1/server?name=${encodeURIComponent(WEATHER)}`);
    expect(res.status).toBe(200);
    const card = serverCardResponseSchema.parse(await res.json());
    expect(card).toMatchObject({
      ok: true,
      server_name: WEATHER,
      health: "healthy",
      health_problems: [],
      verified: true,
      verified_status: "verified",
      repo_stars: 1500,
      months_since_push: 0.3,
      repo_archived: false,
      jspkg_deprecated: false,
      name_collision_count: 2,
      registry_status: "active",
      title: "Weather",
      description: "Forecasts for cities",
      namespace: "io.github.acme",
      namespace_verification: "github",
      version: "1.2.0",
      first_seen_at: ago(200).toISOString(),
      delisted_at: null,
      lookalike_names: [FOLDED_WEATHER, EVIL_WEATHER].sort(),
      evidence_times: {
        repo: ago(0.25).toISOString(),
        packages: ago(0.2).toISOString(),
        vuln: ago(0.1).toISOString(),
        liveness: ago(0.05).toISOString(),
      },
      links: {
        page: "http://localhost:3000/servers/io.github.acme/weather-mcp",
        badge: "http://localhost:3000/badge/io.github.acme/weather-mcp.svg",
      },
    });
    // identity 5+10+5+0 (two lookalikes), maintenance 25, adoption 12+5+5, security 25
    expect(card.trust_pillars).toEqual([
      { pillar: "identity", points: 20, max: 25 },
      { pillar: "maintenance", points: 25, max: 25 },
      { pillar: "adoption", points: 22, max: 25 },
      { pillar: "security", points: 25, max: 25 },
    ]);
    expect(card.trust_score).toBe(92);
    expect(card.trust_factors.find((f) => f.factor === "distinct_name")).toEqual({
      factor: "distinct_name",
      points: 0,
      pillar: "identity",
      evidence: `catalog: 2 other listed servers have a name part that reads the same (${[FOLDED_WEATHER, EVIL_WEATHER].sort().join(", ")})`,
      max: 5,
      status: "unmet",
    });
    expect(card.trust_factors.find((f) => f.factor === "repo_stars")?.evidence).toBe(`repo: 1500 stars (observed ${ago(0.25).toISOString()})`);
  });

  it("says unknown, never guesses, for a server with no observations", async () => {
    const res = await get(serverGet, `/v1/server?name=${encodeURIComponent(EVIL_WEATHER)}`);
    const card = serverCardResponseSchema.parse(await res.json());
    expect(card).toMatchObject({ health: "unknown", health_problems: [], verified: false, repo_stars: null, months_since_push: null, repo_archived: null, jspkg_deprecated: null });
    // the contract's verified is a boolean; beside it, the card says this false is not an observation
    expect(card.verified_status).toBe("unknown");
    const unknown = card.trust_factors.filter((f) => f.status === "unknown");
    expect(unknown.map((f) => f.factor).sort()).toEqual(["artifacts_available", "first_party", "recent_push", "repo_stars", "repository_live"]);
    for (const f of unknown) {
      expect(f.points).toBe(0);
      expect(f.evidence).toMatch(/^unknown: /);
    }
  });

  it("reports problems: a gone repository, an archived one", async () => {
    const gone = serverCardResponseSchema.parse(await (await get(serverGet, `/v1/server?name=${encodeURIComponent(FORECAST)}`)).json());
    expect(gone).toMatchObject({ health: "issues", health_problems: ["repo_gone"], verified: false, verified_status: "not_verified" });
    const archived = serverCardResponseSchema.parse(await (await get(serverGet, `/v1/server?name=${encodeURIComponent(ARCHIVED)}`)).json());
    expect(archived).toMatchObject({ health: "issues", health_problems: ["repo_archived"], repo_archived: true, months_since_push: 13.1 });
  });

  it("keeps a delisted server's card, with its status and when it was delisted", async () => {
    const card = serverCardResponseSchema.parse(await (await get(serverGet, `/v1/server?name=${encodeURIComponent(GONE)}`)).json());
    expect(card).toMatchObject({ registry_status: "delisted", verified: false, delisted_at: expect.any(String) });
  });

  it("answers 404 for a name that differs only in case, and 400 for a missing or overlong name; none of them spends", async () => {
    const res = await get(serverGet, `/v1/server?name=${encodeURIComponent("io.github.acme/Weather-mcp")}`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      ok: false,
      error: "not_found",
      message: 'no server named "io.github.acme/Weather-mcp" in the catalog (names are exact and case-sensitive; find it with GET /v1/search?q= or the catalog_search tool)',
    });
    expect(res.headers.get("x-ratelimit-remaining")).toBe("10");
    const missing = await get(serverGet, "/v1/server");
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ ok: false, error: "invalid_request", message: "name: name is required" });
    const long = await get(serverGet, `/v1/server?name=${"a".repeat(301)}`);
    expect(long.status).toBe(400);
    // the length check keeps its own message (the "required" one is for a missing name only)
    expect((await long.json()).message).toMatch(/^name: Too big: .*<=300 characters$/);
    expect(long.headers.get("x-ratelimit-remaining")).toBe("10");
  });

  it("charges one anonymous lookup per server per day; a repeat is free", async () => {
    const path = `/v1/server?name=${encodeURIComponent(WEATHER)}`;
    expect((await get(serverGet, path)).headers.get("x-ratelimit-remaining")).toBe("9");
    expect((await get(serverGet, path)).headers.get("x-ratelimit-remaining")).toBe("9");
    expect((await get(serverGet, `/v1/server?name=${encodeURIComponent(ARCHIVED)}`)).headers.get("x-ratelimit-remaining")).toBe("8");
  });
});

describe("GET /v1/search", () => {
  const search = async (q: string, extra = "") => {
    const res = await get(searchGet, `/v1/search?q=${encodeURIComponent(q)}${extra}`);
    expect(res.status).toBe(200);
    return searchResultSchema.parse(await res.json());
  };

  it.each([
    ["no q", "/v1/search", "q: q is required"],
    ["a one-character q", "/v1/search?q=a", "q: q must be at least 2 characters, not counting whitespace at either end"],
    ["a q of spaces around one character", "/v1/search?q=%20a%20", "q: q must be at least 2 characters, not counting whitespace at either end"],
    ["a q over 200 characters", `/v1/search?q=${"w".repeat(201)}`, "q: q must be at most 200 characters, not counting whitespace at either end"],
    ["limit 0", "/v1/search?q=weather&limit=0", "limit: limit must be from 1 to 50"],
    ["limit 51", "/v1/search?q=weather&limit=51", "limit: limit must be from 1 to 50"],
    ["a limit past 2^53", "/v1/search?q=weather&limit=99999999999999999999", "limit: limit must be from 1 to 50"],
    ["a limit past what a double holds", `/v1/search?q=weather&limit=${"9".repeat(400)}`, "limit: limit must be from 1 to 50"],
    ["a limit that is not an integer", "/v1/search?q=weather&limit=2.5", "limit: limit must be an integer from 1 to 50"],
    // which of two would be answered is a guess the caller cannot see
    ["q given twice", "/v1/search?q=weather&q=forecast", "q: given more than once; send it once"],
  ])("answers 400 for %s, spending nothing", async (_label, path, message) => {
    const res = await get(searchGet, path);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ ok: false, error: "invalid_request", message });
    expect(res.headers.get("x-ratelimit-remaining")).toBe("10");
  });

  it("puts the exact name first, then the same name part (ties by trust score), with strict HealthCards", async () => {
    const r = await search(EVIL_WEATHER);
    expect(r.ok).toBe(true);
    expect(r.limit).toBe(20);
    expect(r.results.map((c) => [c.server_name, c.match])).toEqual([
      [EVIL_WEATHER, "exact_name"],
      [WEATHER, "exact_part_or_title"],
      [FOLDED_WEATHER, "exact_part_or_title"],
    ]);
    expect(r.count).toBe(3);
    // the two same-part matches are ordered by trust score, highest first
    expect(r.results[1].trust_score).toBeGreaterThan(r.results[2].trust_score);
  });

  it("puts the whole name typed in another case first, even among more same-part servers than a branch reads", async () => {
    // WEATHER has the higher trust score, so only the whole-name match puts EVIL_WEATHER ahead of it
    expect((await search("COM.EVIL/Weather-MCP")).results.slice(0, 3).map((c) => [c.server_name, c.match])).toEqual([
      [EVIL_WEATHER, "exact_part_or_title"],
      [WEATHER, "exact_part_or_title"],
      [FOLDED_WEATHER, "exact_part_or_title"],
    ]);
    // 220 more servers named "…/mcp" (a generic part shared by one server in ten): the one named is still found
    const many = Array.from({ length: 220 }, (_, i) => entry(`io.github.owner${String(i).padStart(3, "0")}/mcp`, { publishedDaysAgo: 3 }));
    await ingestDump(db, [...FIXTURE, ...many, entry("com.webflow/mcp", { publishedDaysAgo: 3 })], "fixture-3.json", ago(0.4));
    clearSearchCache(db);
    const r = await search("Com.Webflow/MCP", "&limit=3");
    expect(r.results.map((c) => c.server_name)[0]).toBe("com.webflow/mcp");
  });

  it("ranks name and title matches above description matches", async () => {
    const r = await search("weather");
    const kinds = r.results.map((c) => c.match);
    expect(r.results[0]).toMatchObject({ server_name: WEATHER, match: "exact_part_or_title" }); // title "Weather"
    expect(kinds.lastIndexOf("similar_name_or_title")).toBeLessThan(kinds.indexOf("description") === -1 ? Infinity : kinds.indexOf("description"));
    expect(r.results.map((c) => c.server_name)).toEqual(expect.arrayContaining([WEATHER, EVIL_WEATHER, FOLDED_WEATHER]));
  });

  it("finds description-only matches", async () => {
    const r = await search("storm alerts");
    expect(r.results.map((c) => [c.server_name, c.match])).toEqual([[FORECAST, "description"]]);
  });

  it("matches descriptions by their own words, not by the namespace words every io.github.* name holds", async () => {
    await ingestDump(db, [...FIXTURE, entry("com.example/mirror", { description: "Mirror repositories from GitHub" })], "fixture-3.json", ago(0.4));
    clearSearchCache(db);
    // five io.github.* servers whose descriptions never say "github" were "description" matches, ranked first
    expect((await search("github")).results.map((c) => [c.server_name, c.match])).toEqual([["com.example/mirror", "description"]]);
    // a word of the owner (or name part, or title) with one of the description still matches
    expect((await search("acme cities")).results.map((c) => [c.server_name, c.match])).toEqual([[WEATHER, "description"]]);
  });

  it("finds the servers of a namespace typed alone, in any case, with or without its slash", async () => {
    await ingestDump(db, [...FIXTURE, entry("io.github.github/github-mcp-server", { title: "GitHub", publishedDaysAgo: 3 })], "fixture-3.json", ago(0.4));
    clearSearchCache(db);
    for (const q of ["io.github.acme", "io.github.acme/", "IO.GitHub.Acme"]) {
      const r = await search(q);
      // the namespace's own servers first (they tie: trust score orders them), before another namespace's lookalike
      expect(r.results.slice(0, 3).map((c) => [c.server_name, c.match]), q).toEqual([
        [WEATHER, "similar_name_or_title"],
        [ARCHIVED, "similar_name_or_title"],
        [FORECAST, "similar_name_or_title"],
      ]);
      expect(r.results.slice(3).map((c) => c.server_name), q).not.toContain(WEATHER);
    }
  });

  it("reads a name copied with its quotes, backticks or angle brackets as the exact name, above its lookalikes", async () => {
    // from a JSON config, a README's code span or a chat message: WEATHER, the higher trust score, used to rank first
    for (const q of [`"${EVIL_WEATHER}"`, `\`${EVIL_WEATHER}\``, `'${EVIL_WEATHER}'`, `<${EVIL_WEATHER}>`, `“${EVIL_WEATHER}”`]) {
      const r = await search(q);
      expect(r.results.slice(0, 2).map((c) => [c.server_name, c.match]), q).toEqual([
        [EVIL_WEATHER, "exact_name"],
        [WEATHER, "exact_part_or_title"],
      ]);
      expect(r.query, q).toBe(q);
    }
  });

  it("finds a server by the repository, package or remote URL its listing names, above servers that only share a name", async () => {
    const STORM = "io.github.acme/wx";
    await ingestDump(
      db,
      [...FIXTURE, entry(STORM, { description: "Severe weather", repo: "https://github.com/acme/storm-watch-repo", npm: "@acme/storm-watch", remote: "https://wx.acme.example/mcp" })],
      "fixture-3.json",
      ago(0.4),
    );
    clearSearchCache(db);
    // none of these is a name, a title or words of a description
    for (const q of ["@acme/storm-watch", "https://github.com/acme/storm-watch-repo", "https://github.com/Acme/Storm-Watch-Repo.git", "github.com/acme/storm-watch-repo/", "https://wx.acme.example/mcp"]) {
      expect((await search(q)).results.map((c) => [c.server_name, c.match]), q).toEqual([[STORM, "exact_part_or_title"]]);
    }
    // the repository URL of WEATHER names it, not com.evil/weather-mcp, which only shares its name part
    const r = await search("https://github.com/acme/weather-mcp");
    expect(r.results[0]).toMatchObject({ server_name: WEATHER, match: "exact_part_or_title" });
    expect(r.results.find((c) => c.server_name === EVIL_WEATHER)?.match).toBe("similar_name_or_title");
  });

  it("tolerates a typo in the name part", async () => {
    expect((await search("wether-mcp")).results.slice(0, 3).map((c) => c.server_name)).toContain(WEATHER);
    expect((await search("forcast-tools")).results[0].server_name).toBe(FORECAST);
  });

  it("honours limit and returns an empty list for no match", async () => {
    expect((await search("weather", "&limit=1")).results).toHaveLength(1);
    // the contract's upper edge, and a q of exactly its 2-character minimum
    expect((await search("weather", "&limit=50")).limit).toBe(50);
    expect((await search("we")).query).toBe("we");
    expect(await search("zzqqxxyy")).toEqual({ ok: true, count: 0, results: [], query: "zzqqxxyy", limit: 20 });
  });

  it("leaves delisted servers out", async () => {
    expect((await search("gone-server")).results.map((c) => c.server_name)).not.toContain(GONE);
  });

  it("charges one lookup per distinct query a day", async () => {
    const a = await get(searchGet, "/v1/search?q=weather");
    expect(a.headers.get("x-ratelimit-remaining")).toBe("9");
    const b = await get(searchGet, "/v1/search?q=weather&limit=5");
    expect(b.headers.get("x-ratelimit-remaining")).toBe("9");
    const c = await get(searchGet, "/v1/search?q=forecast");
    expect(c.headers.get("x-ratelimit-remaining")).toBe("8");
    // the same query in other letter case or spacing is a repeat too
    for (const q of ["Weather", "%20WEATHER%20", "Forecast"]) {
      expect((await get(searchGet, `/v1/search?q=${q}`)).headers.get("x-ratelimit-remaining"), q).toBe("8");
    }
    expect((await get(searchGet, "/v1/search?q=weather%20forecast")).headers.get("x-ratelimit-remaining")).toBe("7");
  });
});

describe("lookalikes and brand claims", () => {
  it("lists the exact-name collisions, oldest first, with how each collides", async () => {
    const res = await get(lookalikesGet, `/v1/lookalikes?name=${encodeURIComponent(WEATHER)}`);
    expect(res.status).toBe(200);
    expect(lookalikesResultSchema.parse(await res.json())).toEqual({
      ok: true,
      server_name: WEATHER,
      name_fold: "weathermcp",
      count: 2,
      first_listed: WEATHER,
      lookalikes: [
        { name: EVIL_WEATHER, namespace: "com.evil", title: null, registry_status: "active", first_seen_at: ago(5).toISOString(), kind: "same_name_part" },
        { name: FOLDED_WEATHER, namespace: "io.github.someone", title: null, registry_status: "active", first_seen_at: ago(4).toISOString(), kind: "folded" },
      ],
    });
    expect(res.headers.get("x-ratelimit-remaining")).toBe("9");
  });

  it("answers 404 for an unknown name without spending", async () => {
    const res = await get(lookalikesGet, "/v1/lookalikes?name=com.nobody/thing");
    expect(res.status).toBe(404);
    expect(res.headers.get("x-ratelimit-remaining")).toBe("10");
  });

  it("sees a homoglyph brand that calls itself official as impersonation", async () => {
    const card = serverCardResponseSchema.parse(await (await get(serverGet, `/v1/server?name=${encodeURIComponent(STRIPE_FAKE)}`)).json());
    expect(card.identity.brand_claims).toEqual([{ brand: "Stripe", verified_by_namespace: false, impersonation: true }]);
    expect(card.trust_factors.find((f) => f.factor === "brand_claims")).toMatchObject({ points: 0, status: "unmet" });
  });

  it("takes a DNS namespace's label for a brand, but not a plain word such as uno.platform's 'platform'", async () => {
    // as in the registry: Uno Platform publishes as uno.platform, and other servers call themselves a "platform"
    const more = [
      entry("uno.platform/uno", { title: "Uno Platform" }),
      entry("com.files/mcp", { title: "Files.com" }),
      entry("dev.storage/mcp"),
      entry("com.acmecorp/tools"),
      entry("io.github.ax-platform/ax-platform"),
      entry("io.github.bob/files-mcp", { title: "Local storage files" }),
      entry("io.github.bob/acmecorp-mcp"),
    ];
    await ingestDump(db, [...FIXTURE, ...more], "fixture-3.json", ago(0.4));
    const card = async (name: string) => serverCardResponseSchema.parse(await (await get(serverGet, `/v1/server?name=${encodeURIComponent(name)}`)).json());
    expect((await card("io.github.ax-platform/ax-platform")).identity.brand_claims).toEqual([]);
    expect((await card("io.github.bob/files-mcp")).identity.brand_claims).toEqual([]);
    expect((await card("io.github.bob/acmecorp-mcp")).identity.brand_claims).toEqual([{ brand: "acmecorp", verified_by_namespace: false, impersonation: false }]);
  });

  it("reads brand claims as a person would: no REVIEW or BLOCK for the brand's own author, a word, or an 'official' SDK", async () => {
    // the patterns of the largest shared snapshot that used to draw a brand finding
    const more = [
      // a product domain pointing at its author's GitHub repository, and the author publishing it under io.github
      entry("com.xcodebuildmcp/XcodeBuildMCP", { repo: "https://github.com/cameroncooke/XcodeBuildMCP" }),
      entry("io.github.cameroncooke/XcodeBuildMCP", { repo: "https://github.com/cameroncooke/XcodeBuildMCP" }),
      // one company, two verified domains (alpic.ai and alpic.live)
      entry("ai.alpic.test/test-mcp-server"),
      entry("live.alpic.staging/alpic-poc-frontend", { title: "My MCP server" }),
      // a derived brand that is a common word, and the reviewed "Linear"
      entry("com.make/mcp-server"),
      entry("io.github.bob/make-requests", { title: "Make HTTP requests" }),
      entry("io.github.bob/algebra", { title: "Linear algebra helper" }),
      entry("io.github.bob/linear-mcp"),
      // "official" about what the server uses, or denied
      entry("io.github.bob/slack-mcp", { description: "Slack tools built on the official MCP TypeScript SDK" }),
      entry("io.github.bob/notion-bridge", { description: "Not an official Notion product" }),
      // what an impersonator writes: fullwidth letters, an accent, a zero-width space, a glued MCP
      entry("io.github.eve/payments", { title: "Ｓｔｒｉｐｅ", description: "The official Stripe MCP server" }),
      entry("io.github.eve/pay", { title: "Strípe Payments (Official)" }),
      entry("io.github.eve/chat", { title: "Sla\u200bck" }),
      entry("io.github.eve/StripeMCP"),
    ];
    await ingestDump(db, [...FIXTURE, ...more], "fixture-3.json", ago(0.4));
    // a caller per look-up: an anonymous caller's daily credits would not cover them all
    let caller = 0;
    const ip = () => `198.51.100.${100 + caller++}`;
    const claims = async (name: string) =>
      serverCardResponseSchema.parse(await (await get(serverGet, `/v1/server?name=${encodeURIComponent(name)}`, { "x-mcp-preflight-socket-ip": ip() })).json()).identity
        .brand_claims;
    const none: unknown[] = [];
    expect(await claims("io.github.cameroncooke/XcodeBuildMCP")).toEqual([{ brand: "xcodebuildmcp", verified_by_namespace: true, impersonation: false }]);
    expect(await claims("live.alpic.staging/alpic-poc-frontend")).toEqual([{ brand: "alpic", verified_by_namespace: true, impersonation: false }]);
    expect(await claims("io.github.bob/make-requests")).toEqual(none);
    expect(await claims("io.github.bob/algebra")).toEqual(none);
    expect(await claims("io.github.bob/linear-mcp")).toEqual([{ brand: "Linear", verified_by_namespace: false, impersonation: false }]);
    expect(await claims("io.github.bob/slack-mcp")).toEqual([{ brand: "Slack", verified_by_namespace: false, impersonation: false }]);
    expect(await claims("io.github.bob/notion-bridge")).toEqual([{ brand: "Notion", verified_by_namespace: false, impersonation: false }]);
    for (const name of ["io.github.eve/payments", "io.github.eve/pay"]) {
      expect(await claims(name)).toEqual([{ brand: "Stripe", verified_by_namespace: false, impersonation: true }]);
    }
    expect(await claims("io.github.eve/chat")).toEqual([{ brand: "Slack", verified_by_namespace: false, impersonation: false }]);
    expect(await claims("io.github.eve/StripeMCP")).toEqual([{ brand: "Stripe", verified_by_namespace: false, impersonation: false }]);

    // and the preflight findings follow the claims
    const brandReasons = async (name: string) => {
      const res = await preflightPost(request("/v1/preflight", { method: "POST", body: { server_name: name }, ip: ip() }));
      expect(res.status).toBe(200);
      const { reasons } = (await res.json()) as { reasons: Array<{ code: string; result: string }> };
      return reasons.filter((r) => r.code.startsWith("brand_")).map((r) => `${r.code}:${r.result}`);
    };
    const clean = ["brand_impersonation:pass", "brand_claim_without_identity:pass"];
    expect(await brandReasons("io.github.cameroncooke/XcodeBuildMCP")).toEqual(clean);
    expect(await brandReasons("live.alpic.staging/alpic-poc-frontend")).toEqual(clean);
    expect(await brandReasons("io.github.bob/algebra")).toEqual(clean);
    expect(await brandReasons("io.github.bob/slack-mcp")).toEqual(["brand_impersonation:pass", "brand_claim_without_identity:review"]);
    expect(await brandReasons("io.github.eve/payments")).toEqual(["brand_impersonation:block", "brand_claim_without_identity:pass"]);
  });
});

describe("GET /v1/stats, /v1/recent and /v1/coverage", () => {
  it("stats: headline counts, cacheable, 304 on a matching If-None-Match", async () => {
    const res = await get(statsGet, "/v1/stats");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=60, s-maxage=300, stale-while-revalidate=600");
    expect(res.headers.get("x-ratelimit-remaining")).toBeNull();
    const etag = res.headers.get("etag")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(statsReportSchema.parse(await res.json())).toEqual({
      ok: true,
      as_of: ago(0.5).toISOString(),
      servers: { listed: 6, delisted: 1, by_registry_status: { active: 6 } },
      health: { healthy: 1, issues: 2, unknown: 3 },
      health_problems: { repo_archived: 1, repo_gone: 1 },
      verified: 1,
      // EVIL_WEATHER's repository is listed and never observed: not counted as verified, nor as known not to be
      verified_unknown: 1,
      artifacts: { jspkg: 1, remote: 1 },
      evaluations_24h: 0,
    });
    const again = await get(statsGet, "/v1/stats", { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("etag")).toBe(etag);
  });

  it("stats and coverage count one listing throughout their body when another process changed it after the other report", async () => {
    // coverage computes (and keeps) the census of listed servers' facts; then another process (the harvest cron
    // on Postgres) delists a server, which this process's memos learn of only when they expire
    coverageReportSchema.parse(await (await get(coverageGet, "/v1/coverage")).json());
    await db.update(servers).set({ delistedAt: ago(0.1) }).where(eq(servers.name, FORECAST));
    const stats = statsReportSchema.parse(await (await get(statsGet, "/v1/stats")).json());
    const byStatus = Object.values(stats.servers.by_registry_status).reduce((a, b) => a + b, 0);
    const byHealth = Object.values(stats.health).reduce((a, b) => a + b, 0);
    expect({ byStatus, byHealth, total: stats.servers.listed + stats.servers.delisted }).toEqual({ byStatus: stats.servers.listed, byHealth: stats.servers.listed, total: 7 });

    // and the other way round: stats computed first, coverage after another change
    clearReportMemo(db);
    statsReportSchema.parse(await (await get(statsGet, "/v1/stats")).json());
    await db.update(servers).set({ delistedAt: ago(0.1) }).where(eq(servers.name, ARCHIVED));
    const c = coverageReportSchema.parse(await (await get(coverageGet, "/v1/coverage")).json());
    const byVerification = Object.values(c.identity.namespace_verification).reduce((a, b) => a + b, 0);
    const byFirstParty = Object.values(c.identity.first_party).reduce((a, b) => a + b, 0);
    expect({ byVerification, byFirstParty, items: c.sources.registry.items, total: c.census.servers_listed + c.census.servers_delisted }).toEqual({
      byVerification: c.census.servers_listed,
      byFirstParty: c.census.servers_listed,
      items: c.census.servers_listed,
      total: 7,
    });
  });

  it("stats and coverage date the listing as the cards do when an older dump is imported after a newer listing", async () => {
    // an older dump written later is a succeeded sync with the highest id, but it is not when the listing was read
    await ingestDump(db, FIXTURE, "older.json", ago(30));
    clearReportMemo(db);
    const card = serverCardResponseSchema.parse(await (await get(serverGet, `/v1/server?name=${encodeURIComponent(WEATHER)}`)).json());
    expect(card.evidence_times.registry).toBe(ago(0.5).toISOString());
    const stats = statsReportSchema.parse(await (await get(statsGet, "/v1/stats")).json());
    expect(stats.as_of).toBe(ago(0.5).toISOString());
    const c = coverageReportSchema.parse(await (await get(coverageGet, "/v1/coverage")).json());
    expect(c.sources.registry.observed_at).toBe(ago(0.5).toISOString());
    expect(c.discovery.listing_observed_at).toBe(ago(0.5).toISOString());
    // the last successful sync is still the older dump: it did finish last
    expect(c.discovery.recent_syncs[0].origin).toBe("older.json");
  });

  it("recent: newest first by first_seen_at, paginated by cursor, cacheable", async () => {
    const first = await get(recentGet, "/v1/recent?limit=2");
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toContain("max-age=60");
    const p1 = recentResultSchema.parse(await first.json());
    expect(p1.servers.map((s) => s.server_name)).toEqual([ARCHIVED, FORECAST]);
    expect(p1.has_more).toBe(true);
    const p2 = recentResultSchema.parse(await (await get(recentGet, `/v1/recent?limit=2&cursor=${p1.next_cursor}`)).json());
    expect(p2.servers.map((s) => s.server_name)).toEqual([STRIPE_FAKE, FOLDED_WEATHER]);
    const p3 = recentResultSchema.parse(await (await get(recentGet, `/v1/recent?limit=2&cursor=${p2.next_cursor}`)).json());
    expect(p3).toMatchObject({ count: 2, has_more: false, next_cursor: null });
    expect(p3.servers.map((s) => s.server_name)).toEqual([EVIL_WEATHER, WEATHER]);
    for (const s of p1.servers) healthCardSchema.parse(s);
    const etag = first.headers.get("etag")!;
    expect((await get(recentGet, "/v1/recent?limit=2", { "if-none-match": etag })).status).toBe(304);
  });

  it("recent: 400 for a bad cursor or limit", async () => {
    // a cursor of the right shape naming a time that is not one (Feb 30, year 0, a leap second) is refused too, never a 500
    const forged = (at: string) => Buffer.from(JSON.stringify([at, 1])).toString("base64url");
    const badTimes = ["2025-02-30T00:00:00.000000Z", "0000-01-01T00:00:00.000000Z", "2025-13-45T99:00:00.000000Z", "2025-01-01T23:59:60.000000Z"];
    for (const path of ["/v1/recent?cursor=bogus", "/v1/recent?limit=0", "/v1/recent?limit=101", ...badTimes.map((t) => `/v1/recent?cursor=${forged(t)}`)]) {
      const res = await get(recentGet, path);
      expect(res.status, path).toBe(400);
      expect((await res.json()).error).toBe("invalid_request");
    }
  });

  it("coverage: census, per-source coverage and freshness, identity, harvest and discovery", async () => {
    const res = await get(coverageGet, "/v1/coverage");
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).toBeTruthy();
    const c = coverageReportSchema.parse(await res.json());
    expect(c.census).toEqual({ servers_listed: 6, servers_delisted: 1, versions: 7, namespaces: 4, repositories: 4, packages: { jspkg: 1 }, remotes: 1 });
    expect(c.sources.repo).toMatchObject({ items: 4, observed: 3, never_attempted: 1, fresh: 3, stale: 0, coverage: 0.75, freshness_target_hours: 24 });
    expect(c.sources.jspkg).toMatchObject({ items: 1, observed: 1, coverage: 1 });
    expect(c.sources.pypkg).toMatchObject({ items: 0, coverage: null });
    expect(c.sources.liveness).toMatchObject({ items: 1, observed: 1, live: 1, down: 0, freshness_target_hours: 6 });
    expect(c.sources.registry).toEqual({ items: 6, observed_at: ago(0.5).toISOString(), last_sync_at: expect.any(String) });
    expect(c.identity).toMatchObject({ namespace_verification: { github: 5, dns: 1, none: 0 }, first_party: { yes: 3, no: 0, unknown: 3 } });
    expect(c.identity.brand_claims).toEqual({ servers: 1, unverified: 0, impersonation: 1 });
    expect(c.identity.servers_with_lookalikes).toBe(3);
    expect(c.harvest).toEqual({ last_run_at: null, last_success_at: null, running: false, recent_runs: [] });
    expect(c.discovery.recent_syncs.map((s) => [s.origin, s.status, s.complete])).toEqual([
      ["fixture-2.json", "succeeded", true],
      ["fixture-1.json", "succeeded", true],
    ]);
    expect(c.discovery.new_servers).toEqual({ last_24h: 0, last_7d: 5, last_30d: 5 }); // the newest was first seen exactly 24 h ago
  });
});

describe("GET /badge/<name>.svg", () => {
  it("shows the baseline decision, links to the server's page and is cacheable for embeds", async () => {
    const res = await badge(`/badge/${WEATHER}.svg`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("public, max-age=3600, s-maxage=3600, stale-while-revalidate=86400");
    const svg = await res.text();
    expect(svg).toMatch(/^<svg /);
    expect(svg).toContain("mcp preflight: PASS");
    expect(svg).toContain('href="http://localhost:3000/servers/io.github.acme/weather-mcp"');
    expect((await badge(`/badge/${WEATHER}.svg`, { "if-none-match": res.headers.get("etag")! })).status).toBe(304);
  });

  it("shows BLOCK for brand impersonation and REVIEW for an archived repository", async () => {
    expect(await (await badge(`/badge/${STRIPE_FAKE}.svg`)).text()).toContain("mcp preflight: BLOCK");
    expect(await (await badge(`/badge/${ARCHIVED}.svg`)).text()).toContain("mcp preflight: REVIEW");
  });

  it("shows health on request", async () => {
    expect(await (await badge(`/badge/${WEATHER}.svg?show=health`)).text()).toContain("mcp preflight: healthy");
    expect(await (await badge(`/badge/${FORECAST}.svg?show=health`)).text()).toContain("mcp preflight: issues");
  });

  it("answers an SVG 'not in catalog' badge with 404 for unknown names and paths without .svg", async () => {
    for (const path of ["/badge/com.nobody/thing.svg", `/badge/${WEATHER}`, "/badge/io.github.acme/WEATHER-MCP.svg"]) {
      const res = await badge(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
      expect(res.headers.get("cache-control")).toBe("public, max-age=300, s-maxage=300");
      expect(await res.text()).toContain("mcp preflight: not in catalog");
    }
  });
});

describe("GET /v1/health", () => {
  it("answers {ok: true} without touching the database", async () => {
    const res = healthGet(new Request("http://localhost/v1/health"));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
  });
});
