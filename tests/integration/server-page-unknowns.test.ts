import { beforeAll, describe, expect, it } from "vitest";
import * as React from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { ingestDump } from "@/lib/catalog/ingest-dump";
import { packageObservations, remoteObservations, repositoryObservations, servers, vulnObservations } from "@/lib/db/schema";
import { getServerCard } from "@/lib/services/get-server-card";
import { utc } from "@/app/_components/format";
import { resetDb } from "../helpers/db";
import { listing } from "../helpers/catalog-fixture";

// vitest compiles the page's JSX to React.createElement (Next's build uses the automatic runtime)
(globalThis as { React?: typeof React }).React = React;
// vitest sets BASE_URL=/ (Vite's base path), which siteUrl() would otherwise read
process.env.SITE_URL = "http://localhost:3000";

// "An unknown stays unknown": the server page left a value the card has as null out of its sentence (a
// repository that exists with its archive state, stars and last push not reported read "exists", as if nothing
// were left to know), hid first-party identity when it was not established, never said when a delisted server
// left the registry, and gave no package its own observation time.

const NOW = new Date();
const OBSERVED = new Date(NOW.getTime() - 3_600_000);
const ATTEMPTED = new Date(NOW.getTime() - 1_800_000);
const S = {
  partial: "io.github.b/partial",
  tried: "io.github.c/tried",
  hosted: "com.example/hosted",
  delisted: "io.github.e/delisted",
} as const;

let db: Db;
beforeAll(async () => {
  db = await resetDb();
  await ingestDump(
    db,
    [
      listing({
        name: S.partial,
        repository: { url: "https://github.com/b/partial", source: "github" },
        packages: [
          { registryType: "npm", identifier: "partial-pkg", version: "1.0.0", transport: { type: "stdio" } },
          { registryType: "oci", identifier: "ghcr.io/b/partial:1.0.0", transport: { type: "stdio" } },
        ],
      }),
      listing({ name: S.tried, repository: { url: "https://github.com/c/tried", source: "github" } }),
      listing({ name: S.hosted, remotes: [{ type: "streamable-http", url: "https://other.example/mcp" }] }),
      listing({ name: S.delisted, repository: { url: "https://github.com/e/delisted", source: "github" } }),
    ],
    "unknowns",
    new Date(NOW.getTime() - 86_400_000),
  );
  const rows = new Map((await db.select().from(servers)).map((r) => [r.name, r]));
  await db.insert(repositoryObservations).values([
    // the host answered, without an archive state, star count or last push
    { repositoryId: rows.get(S.partial)!.repositoryId!, exists: true, httpStatus: 200, observedAt: OBSERVED, attemptedAt: OBSERVED },
    // tried, never answered
    { repositoryId: rows.get(S.tried)!.repositoryId!, exists: null, observedAt: null, attemptedAt: ATTEMPTED, lastError: "timeout" },
  ]);
  await db.insert(packageObservations).values({ ecosystem: "jspkg", identifier: "partial-pkg", exists: true, latestVersion: "1.0.0", versions: { "1.0.0": { deprecated: "use x" } }, observedAt: OBSERVED, attemptedAt: OBSERVED });
  await db.insert(vulnObservations).values({ ecosystem: "jspkg", identifier: "partial-pkg", listedVersion: "1.0.0", queriedVersion: "1.0.0", advisories: [{ id: "GHSA-xxxx", summary: "bad", severity: "high" }], observedAt: ATTEMPTED, attemptedAt: ATTEMPTED });
  await db.insert(remoteObservations).values({ url: "https://other.example/mcp", type: "streamable-http", live: false, httpStatus: null, observedAt: OBSERVED, attemptedAt: OBSERVED });
  await db.update(servers).set({ delistedAt: OBSERVED }).where(eq(servers.name, S.delisted));
});

/** The page's text as a reader sees it: tags gone, entities decoded, white space collapsed. */
async function pageText(name: string): Promise<string> {
  const { default: ServerPage } = await import("@/app/servers/[...name]/page");
  const html = renderToStaticMarkup(await ServerPage({ params: Promise.resolve({ name: name.split("/").map(encodeURIComponent) }) }));
  return html
    .replace(/<[^>]+>/g, " ")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .replace(/ ([,.:;)])/g, "$1");
}

const card = async (name: string) => getServerCard(db, name, { charge: async () => undefined });

describe("the server page shows what the card does not know as unknown", () => {
  it("a repository that exists, with its archive state, stars and last push not reported", async () => {
    const c = await card(S.partial);
    expect([c.repo_archived, c.repo_stars, c.months_since_push]).toEqual([null, null, null]);
    expect(await pageText(S.partial)).toContain(
      `https://github.com/b/partial: exists, archive state unknown, star count unknown, last push unknown (observed ${utc(OBSERVED.toISOString())})`,
    );
  });

  it("a repository tried and never answered: not observed, with the attempt's time", async () => {
    const c = await card(S.tried);
    expect(c.repository).toMatchObject({ exists: null, observed_at: null, attempted_at: ATTEMPTED.toISOString() });
    const text = await pageText(S.tried);
    expect(text).toContain(`https://github.com/c/tried: not observed yet (last attempt ${utc(ATTEMPTED.toISOString())})`);
    expect(text).not.toContain("observed never");
  });

  it("first-party identity not established is said, not left out", async () => {
    expect((await card(S.hosted)).identity.first_party).toBeNull();
    expect(await pageText(S.hosted)).toContain("First party: not established.");
  });

  it("a remote down without an HTTP status says it gave no HTTP answer, not a bare \"down\"", async () => {
    expect((await card(S.hosted)).remotes).toEqual([
      { type: "streamable-http", url: "https://other.example/mcp", live: false, http_status: null, observed_at: OBSERVED.toISOString() },
    ]);
    expect(await pageText(S.hosted)).toContain(
      `https://other.example/mcp streamable-http: down, no HTTP answer (connection refused, name not resolved or TLS failure) observed ${utc(OBSERVED.toISOString())}`,
    );
  });

  it("a delisted server says when it left the registry", async () => {
    const c = await card(S.delisted);
    expect(c.registry_status).toBe("delisted");
    expect(await pageText(S.delisted)).toContain(`Registry delisted (noticed ${utc(c.delisted_at)})`);
  });

  it("each package carries its own observation and advisory look-up times", async () => {
    const c = await card(S.partial);
    expect(c.packages[0]).toMatchObject({ deprecated: true, advisories: ["GHSA-xxxx"], observed_at: OBSERVED.toISOString(), advisories_observed_at: ATTEMPTED.toISOString() });
    const text = await pageText(S.partial);
    expect(text).toContain(`jspkg partial-pkg 1.0.0 yes yes GHSA-xxxx (looked up ${utc(ATTEMPTED.toISOString())}) ${utc(OBSERVED.toISOString())}`);
  });

  it("an artifact the catalog never looks up (oci) says so, not \"not observed\" as if a look-up were pending", async () => {
    const oci = (await card(S.partial)).packages.find((p) => p.ecosystem === "oci")!;
    expect(oci).toMatchObject({ exists: null, deprecated: null, advisories: null, observed_at: null });
    expect(await pageText(S.partial)).toMatch(/oci ghcr\.io\/b\/partial:1\.0\.0 (none named|1\.0\.0) not looked up: only jspkg and pypkg packages are checked/);
  });
});
