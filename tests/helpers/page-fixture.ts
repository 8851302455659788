import { eq, inArray } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { ingestDump } from "@/lib/catalog/ingest-dump";
import { packageObservations, remoteObservations, repositoryObservations, serverPackages, servers, vulnObservations } from "@/lib/db/schema";
import { recordChanges, type ChangeKind } from "@/lib/harvest/record-changes";
import { listing } from "./catalog-fixture";

// A small catalog whose servers land on every decision and health, with the observations the harvester
// would have written: for the pages' tests (tests/integration/server-page.test.ts and the browser test).

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export const PAGE_SERVERS = {
  /** First party, live repository, package and remote, no advisories: PASS everywhere. */
  pass: "io.github.acme/weather",
  /** Same name part as acme's (a lookalike), repository archived: REVIEW. */
  review: "io.github.bob/weather",
  /** Repository gone: BLOCK. */
  block: "io.github.carol/old-tool",
  /** Hosted only, remote down, nothing else observed. */
  remote: "com.example/remote-only",
} as const;

export async function seedPageFixture(db: Db, now = new Date()): Promise<void> {
  const listedAt = new Date(now.getTime() - 200 * DAY);
  await ingestDump(
    db,
    [
      listing({
        name: PAGE_SERVERS.pass,
        title: "Acme Weather",
        description: "Forecasts and alerts for any city",
        repository: { url: "https://github.com/acme/weather", source: "github" },
        packages: [{ registryType: "npm", identifier: "@acme/mcp-weather", version: "1.4.2", transport: { type: "stdio" } }],
        remotes: [{ type: "streamable-http", url: "https://mcp.acme.example/mcp" }],
      }),
      listing({
        name: PAGE_SERVERS.review,
        title: "Weather (Bob)",
        description: "A weather server, no longer maintained",
        repository: { url: "https://github.com/bob/weather", source: "github" },
      }),
      listing({ name: PAGE_SERVERS.block, description: "An old tool whose repository is gone", repository: { url: "https://github.com/carol/old-tool", source: "github" } }),
      listing({ name: PAGE_SERVERS.remote, description: "Hosted only", remotes: [{ type: "streamable-http", url: "https://mcp.example.com/mcp" }] }),
    ],
    "page-fixture",
    listedAt,
  );
  const observed = new Date(now.getTime() - HOUR);
  const rows = await db
    .select({ name: servers.name, repositoryId: servers.repositoryId, versionId: servers.latestVersionId })
    .from(servers)
    .where(inArray(servers.name, Object.values(PAGE_SERVERS)));
  const byName = new Map(rows.map((r) => [r.name, r]));
  const repo = (name: string, v: { exists: boolean; archived?: boolean; pushedDaysAgo?: number; stars?: number }) => ({
    repositoryId: byName.get(name)!.repositoryId!,
    exists: v.exists,
    httpStatus: v.exists ? 200 : 404,
    archived: v.exists ? (v.archived ?? false) : null,
    pushedAt: v.pushedDaysAgo === undefined ? null : new Date(now.getTime() - v.pushedDaysAgo * DAY),
    stars: v.stars ?? null,
    observedAt: observed,
    attemptedAt: observed,
  });
  await db.insert(repositoryObservations).values([
    repo(PAGE_SERVERS.pass, { exists: true, pushedDaysAgo: 10, stars: 1234 }),
    repo(PAGE_SERVERS.review, { exists: true, archived: true, pushedDaysAgo: 400, stars: 12 }),
    repo(PAGE_SERVERS.block, { exists: false }),
  ]);
  const [pkg] = await db.select().from(serverPackages).where(eq(serverPackages.versionId, byName.get(PAGE_SERVERS.pass)!.versionId!));
  await db.insert(packageObservations).values({
    ecosystem: pkg.ecosystem,
    identifier: pkg.identifier,
    exists: true,
    latestVersion: "1.4.2",
    versions: { "1.4.2": {} },
    observedAt: observed,
    attemptedAt: observed,
  });
  await db.insert(vulnObservations).values({
    ecosystem: pkg.ecosystem,
    identifier: pkg.identifier,
    listedVersion: pkg.version ?? "",
    queriedVersion: pkg.version ?? "1.4.2",
    advisories: [],
    observedAt: observed,
    attemptedAt: observed,
  });
  await db.insert(remoteObservations).values([
    { url: "https://mcp.acme.example/mcp", type: "streamable-http", live: true, httpStatus: 200, observedAt: observed, attemptedAt: observed },
    { url: "https://mcp.example.com/mcp", type: "streamable-http", live: false, httpStatus: 503, observedAt: observed, attemptedAt: observed },
  ]);
  const ids = await db.select({ id: servers.id, name: servers.name }).from(servers);
  const idOf = new Map(ids.map((r) => [r.name, r.id]));
  const change = (name: string, kind: ChangeKind, before: unknown, after: unknown, hoursAgo: number) => ({
    kind,
    serverId: idOf.get(name)!,
    serverName: name,
    observedAt: new Date(now.getTime() - hoursAgo * HOUR),
    before,
    after,
  });
  await db.transaction((tx) =>
    recordChanges(tx, [
      change(PAGE_SERVERS.remote, "remote_down", { live: true }, { live: false, http_status: 503 }, 3),
      change(PAGE_SERVERS.block, "health_change", { health: "unknown" }, { health: "issues", problems: ["repo_gone"] }, 2),
      change(PAGE_SERVERS.pass, "health_change", { health: "unknown" }, { health: "healthy" }, 1),
    ]),
  );
}
