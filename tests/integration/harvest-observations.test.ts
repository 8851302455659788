import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import {
  changes,
  harvestRuns,
  packageObservations,
  remoteObservations,
  repositories,
  repositoryObservations,
  servers,
  vulnObservations,
} from "@/lib/db/schema";
import { runHarvest } from "@/lib/harvest/run-harvest";
import { readServerObservations } from "@/lib/harvest/read-server-observations";
import { loadServerRecords } from "@/lib/facts/load-facts";
import type { FakeUpstreams } from "@/scripts/fake-upstreams/server";
import type { GeneratedWorld } from "@/scripts/fake-upstreams/generate";
import type { FakeVuln } from "@/scripts/fake-upstreams/packages";
import { resetDb } from "../helpers/db";
import { startWorld, TEST_HTTP } from "../helpers/harvest-world";

const HOUR = 3_600_000;

describe("harvesting a generated catalog from the fake upstreams", () => {
  let fake: FakeUpstreams;
  let world: GeneratedWorld;
  let db: Db;
  let now = Date.parse("2026-03-01T00:00:00Z");
  const clock = () => new Date(now);
  const harvest = (sources?: Parameters<typeof runHarvest>[1]["sources"]) => runHarvest(db, { trigger: "test", http: TEST_HTTP, clock, sources });

  // Servers with a repository of their own, to shape each special case on.
  const own = () => world.servers.filter((s) => s.repo && s.repo.owner.startsWith("owner"));
  const repoRow = async (owner: string, name: string) =>
    (await db.select().from(repositories).where(eq(repositories.url, `https://github.com/${owner}/${name}`.toLowerCase())))[0];
  const repoObs = async (owner: string, name: string) => {
    const r = await repoRow(owner, name);
    return (await db.select().from(repositoryObservations).where(eq(repositoryObservations.repositoryId, r.id)))[0];
  };
  const pkgObs = async (ecosystem: string, identifier: string) =>
    (await db.select().from(packageObservations).where(and(eq(packageObservations.ecosystem, ecosystem), eq(packageObservations.identifier, identifier))))[0];

  beforeAll(async () => {
    ({ fake, world } = await startWorld(400, 7));
    process.env.LIVENESS_TIMEOUT_MS = "15000"; // the fake endpoints answer at once; generous for a loaded machine
    db = await resetDb();
    const [gone, dmca, tos, renamed, archived] = own();
    const gh = (s: (typeof world.servers)[number]) => fake.github.repos.get(`${s.repo!.owner}/${s.repo!.name}`.toLowerCase())!;
    gh(gone).status = 404;
    gh(dmca).status = 451;
    gh(tos).status = 403;
    gh(archived).archived = true;
    const r = gh(renamed);
    r.status = 200;
    r.renamedTo = `${r.owner}/${r.name}-moved`;
    fake.github.set({ ...r, renamedTo: undefined, id: r.id + 9_000_000, name: `${r.name}-moved` });
  });
  afterAll(() => fake?.close());

  it("a first run observes every item once, in batches, and records it", async () => {
    const result = await harvest();
    expect(result.status).toBe("succeeded");
    expect(result.counts.repo).toEqual({ due: world.repos, attempted: world.repos, observed: world.repos, failed: 0 });
    expect(result.counts.vuln.failed).toBe(0);
    expect(result.counts.liveness.observed).toBe(world.remotes);
    // one GraphQL query per 100 repositories, plus REST for the two blocked ones
    expect(fake.github.graphqlCalls).toBe(Math.ceil(world.repos / 100));
    expect(fake.github.restCalls).toBe(2);
    expect(fake.osv.batchCalls).toBe(1);
    expect(result.changes.server_new).toBe(400);
    const [run] = await db.select().from(harvestRuns).where(eq(harvestRuns.id, result.runId));
    expect(run.status).toBe("succeeded");
    expect((run.calls as Record<string, number>).repo).toBe(fake.github.graphqlCalls + fake.github.restCalls);
  });

  it("a second run finds nothing due and calls no upstream but the registry", async () => {
    // a probe's client may still be closing its last stream: let it land first
    await new Promise((r) => setTimeout(r, 300));
    const before = { ...fake.calls };
    const r = await harvest();
    for (const s of ["repo", "jspkg", "pypkg", "vuln", "liveness"] as const) expect(r.counts[s].attempted, s).toBe(0);
    for (const s of ["github", "npm", "pypi", "osv", "mcp"]) expect(fake.calls[s] ?? 0, s).toBe(before[s] ?? 0);
  });

  it("stores gone, blocked, renamed and archived repositories as the host answered", async () => {
    const [gone, dmca, tos, renamed, archived, plain] = own();
    expect(await repoObs(gone.repo!.owner, gone.repo!.name)).toMatchObject({ exists: false, httpStatus: 404 });
    expect(await repoObs(dmca.repo!.owner, dmca.repo!.name)).toMatchObject({ exists: false, httpStatus: 451 });
    expect(await repoObs(tos.repo!.owner, tos.repo!.name)).toMatchObject({ exists: false, httpStatus: 403 });
    expect(await repoObs(renamed.repo!.owner, renamed.repo!.name)).toMatchObject({ exists: true, renamedTo: `${renamed.repo!.owner}/${renamed.repo!.name}-moved` });
    expect(await repoObs(archived.repo!.owner, archived.repo!.name)).toMatchObject({ exists: true, archived: true });
    const p = await repoObs(plain.repo!.owner, plain.repo!.name);
    expect(p).toMatchObject({ exists: true, archived: false, renamedTo: null, httpStatus: 200 });
    expect(p.observedAt!.getTime()).toBe(now);
    expect(p.attemptedAt!.getTime()).toBe(now);
  });

  it("stores missing, unpublished, deprecated and yanked packages and per-version advisories", async () => {
    const jspkg = world.servers.filter((s) => s.pkg?.ecosystem === "jspkg").map((s) => s.pkg!);
    const missing = jspkg.find((p) => !fake.npm.packages.has(p.identifier));
    const unpublished = jspkg.find((p) => fake.npm.packages.get(p.identifier)?.unpublished);
    const deprecated = jspkg.find((p) => {
      const f = fake.npm.packages.get(p.identifier);
      return f && !f.unpublished && f.versions[f.latest];
    });
    expect(missing && unpublished && deprecated, "the generated world has each case").toBeTruthy();
    expect(await pkgObs("jspkg", missing!.identifier)).toMatchObject({ exists: false, unpublished: false });
    expect(await pkgObs("jspkg", unpublished!.identifier)).toMatchObject({ exists: false, unpublished: true });
    expect(await pkgObs("jspkg", deprecated!.identifier)).toMatchObject({ exists: true, deprecated: "no longer maintained" });

    // a PyPI name with capitals and dots is looked up under its PEP 503 form, yanks per version
    const pyServer = world.servers.find((s) => s.pkg?.ecosystem === "pypkg" && s.pkg.version)!;
    const py = pyServer.pkg!;
    const project = fake.pypi.projects.get(py.identifier.replace(/[-_.]+/g, "-").toLowerCase())!;
    project.versions[py.version!] = true;
    now += 25 * HOUR;
    await harvest(["pypkg"]);
    const o = await pkgObs("pypkg", py.identifier);
    expect(o.exists).toBe(true);
    expect((o.versions as Record<string, { yanked?: boolean }>)[py.version!]).toEqual({ yanked: true });
    // a yanked listed release is PyPI's "do not use": the pypkg counts as deprecated, as a deprecated npm version does
    const yanked = await readServerObservations(db, pyServer.name);
    expect(yanked!.state.problems).toContain("pypkg_deprecated");
    expect((await loadServerRecords(db, [pyServer.name])).get(pyServer.name)!.facts.packages[0].deprecated).toBe(true);

    const vuln = await db.select().from(vulnObservations).where(sql`jsonb_array_length(${vulnObservations.advisories}) > 0`);
    expect(vuln.length).toBeGreaterThan(0);
    const adv = (vuln[0].advisories as { id: string; severity: string; summary: string }[])[0];
    expect(adv).toMatchObject({ id: expect.stringMatching(/^GHSA-gen-/), severity: "HIGH", summary: expect.stringContaining("Generated advisory") });
  });

  it("probes streamable-http and SSE remotes with the SDK and hashes their tool lists", async () => {
    const sse = world.servers.find((s) => s.remote?.type === "sse")!;
    const http = world.servers.find((s) => s.remote?.type === "streamable-http" && !fake.mcp.endpoints.get(s.remote.id)!.status)!;
    for (const s of [sse, http]) {
      const [o] = await db.select().from(remoteObservations).where(eq(remoteObservations.url, `${fake.url}/${s.remote!.type === "sse" ? "sse" : "mcp"}/${s.remote!.id}`));
      expect(o).toMatchObject({ live: true, toolsCount: 2, toolsHash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/), serverInfo: `fake-${s.remote!.id}@1.0.0` });
    }
  });

  it("records remote_down, remote_up and tools_changed when a probe shows them", async () => {
    const s = world.servers.find((x) => x.remote?.type === "streamable-http" && !fake.mcp.endpoints.get(x.remote.id)!.status)!;
    const ep = fake.mcp.endpoints.get(s.remote!.id)!;
    const kinds = async () =>
      (await db.select().from(changes).where(eq(changes.serverName, s.name)).orderBy(desc(changes.id))).map((c) => c.kind);

    ep.status = 503;
    now += 7 * HOUR;
    await harvest(["liveness"]);
    expect((await kinds())[0]).toBe("health_change");
    expect(await kinds()).toContain("remote_down");
    const [down] = await db.select().from(changes).where(and(eq(changes.serverName, s.name), eq(changes.kind, "remote_down")));
    expect(down.after).toMatchObject({ live: false, http_status: 503 });
    expect(down.before).toMatchObject({ live: true });

    ep.status = undefined;
    ep.tools = [...ep.tools, { name: "delete_everything", description: "new" }];
    now += 7 * HOUR;
    await harvest(["liveness"]);
    const latest = await kinds();
    expect(latest.slice(0, 3).sort()).toEqual(["health_change", "remote_up", "tools_changed"]);
    const [tc] = await db.select().from(changes).where(and(eq(changes.serverName, s.name), eq(changes.kind, "tools_changed")));
    expect(tc.before).toMatchObject({ tools_count: 2 });
    expect(tc.after).toMatchObject({ tools_count: 3 });
  });

  it("records a security change when a new advisory affects a listed version", async () => {
    const s = world.servers.find((x) => x.pkg?.ecosystem === "jspkg" && x.pkg.version && fake.npm.packages.has(x.pkg.identifier) && !fake.npm.packages.get(x.pkg.identifier)!.unpublished)!;
    fake.osv.add({ id: "GHSA-new-0001", modified: "2026-03-02T00:00:00Z", summary: "new hole", severity: "CRITICAL", ecosystem: "npm", name: s.pkg!.identifier, versions: [s.pkg!.version!] });
    now += 25 * HOUR;
    await harvest(["vuln"]);
    const rows = await db.select().from(changes).where(and(eq(changes.serverName, s.name), eq(changes.kind, "security")));
    expect(rows).toHaveLength(1);
    expect(rows[0].after).toEqual({ advisories: [{ ecosystem: "jspkg", identifier: s.pkg!.identifier, version: s.pkg!.version, id: "GHSA-new-0001", severity: "CRITICAL" }] });
    const obs = await readServerObservations(db, s.name);
    expect(obs!.packages[0].advisories).toEqual([{ id: "GHSA-new-0001", summary: "new hole", severity: "CRITICAL", modified: "2026-03-02T00:00:00Z" }]);
    expect(obs!.state.problems).toContain("vuln_package_advisory");
    expect(obs!.state.health).toBe("issues");
  });

  it("reads a PyPI project's PEP 792 status from the Simple API: deprecated or archived deprecates every release, until it is active again", async () => {
    const server = world.servers.filter((s) => s.pkg?.ecosystem === "pypkg" && s.pkg.version).at(-1)!;
    const project = fake.pypi.projects.get(server.pkg!.identifier.replace(/[-_.]+/g, "-").toLowerCase())!;
    const deprecated = async () => (await loadServerRecords(db, [server.name])).get(server.name)!.facts.packages[0].deprecated;
    expect(await deprecated()).toBe(false);

    project.status = { status: "archived", reason: "superseded by acme-mcp" };
    const simpleBefore = fake.pypi.simpleCalls;
    now += 25 * HOUR;
    await harvest(["pypkg"]);
    expect(fake.pypi.simpleCalls).toBeGreaterThan(simpleBefore);
    expect(await deprecated()).toBe(true);
    expect((await pkgObs("pypkg", server.pkg!.identifier)).deprecated).toBe("archived: superseded by acme-mcp");
    expect((await readServerObservations(db, server.name))!.state.problems).toContain("pypkg_deprecated");

    // the JSON document did not change (304), the status did: the project is read again
    project.status = { status: "active" };
    now += 25 * HOUR;
    await harvest(["pypkg"]);
    expect(await deprecated()).toBe(false);
  });

  it("a withdrawn advisory does not count, and counts again once OSV reinstates it", async () => {
    const s = world.servers.find((x) => x.pkg?.ecosystem === "jspkg" && x.pkg.version && fake.npm.packages.has(x.pkg.identifier) && !fake.npm.packages.get(x.pkg.identifier)!.unpublished)!;
    const v: FakeVuln = { id: "GHSA-back-0001", modified: "2026-03-03T00:00:00Z", summary: "retracted, then not", severity: "HIGH", ecosystem: "npm", name: s.pkg!.identifier, versions: [s.pkg!.version!], withdrawn: "2026-03-03T00:00:00Z" };
    fake.osv.add(v);
    now += 25 * HOUR;
    await harvest(["vuln"]);
    const ids = async () => ((await readServerObservations(db, s.name))!.packages[0].advisories ?? []).map((a) => a.id);
    expect(await ids()).not.toContain("GHSA-back-0001");
    v.withdrawn = undefined;
    v.modified = "2026-03-04T00:00:00Z";
    now += 25 * HOUR;
    await harvest(["vuln"]);
    expect(await ids()).toContain("GHSA-back-0001");
  });

  it("without a token reads repositories over REST with ETags: a 304 confirms what is stored, a 301 is a rename", async () => {
    const token = process.env.GITHUB_TOKEN;
    delete process.env.GITHUB_TOKEN;
    try {
      const [, , , renamed] = own();
      const rest0 = fake.github.restCalls;
      const graphql0 = fake.github.graphqlCalls;
      now += 25 * HOUR;
      const first = await harvest(["repo"]);
      expect(fake.github.graphqlCalls).toBe(graphql0);
      expect(first.counts.repo.observed).toBe(world.repos);
      // renames answer 301 to /repositories/{id}, followed; the new name is stored
      expect(await repoObs(renamed.repo!.owner, renamed.repo!.name)).toMatchObject({ exists: true, renamedTo: `${renamed.repo!.owner}/${renamed.repo!.name}-moved` });
      const [, , , , , plain] = own();
      const stored = await repoObs(plain.repo!.owner, plain.repo!.name);
      expect(stored.etag).toMatch(/^"[0-9a-f]{40}"$/);

      now += 25 * HOUR;
      const second = await harvest(["repo"]);
      expect(second.counts.repo.observed).toBe(world.repos);
      const again = await repoObs(plain.repo!.owner, plain.repo!.name);
      expect(again).toMatchObject({ stars: stored.stars, etag: stored.etag, exists: true });
      expect(again.observedAt!.getTime()).toBe(now);
      expect(fake.github.restCalls - rest0).toBeGreaterThanOrEqual(2 * world.repos);
    } finally {
      process.env.GITHUB_TOKEN = token;
    }
  });

  it("follows OSV page tokens for a look-up with more advisories than a page holds", async () => {
    const s = world.servers.find((x) => x.pkg?.ecosystem === "pypkg" && x.pkg.version && fake.pypi.projects.has(x.pkg.identifier.replace(/[-_.]+/g, "-").toLowerCase()))!;
    for (const id of ["PYSEC-0001", "PYSEC-0002", "PYSEC-0003"]) {
      fake.osv.add({ id, modified: "2026-03-03T00:00:00Z", summary: id, severity: "LOW", ecosystem: "PyPI", name: s.pkg!.identifier, versions: [s.pkg!.version!] });
    }
    fake.osv.pageSize = 2;
    try {
      const batch0 = fake.osv.batchCalls;
      now += 25 * HOUR;
      await harvest(["vuln"]);
      expect(fake.osv.batchCalls - batch0).toBe(2); // the batch, then the one query with a page token
      const obs = await readServerObservations(db, s.name);
      expect(obs!.packages[0].advisories!.map((a) => a.id)).toEqual(["PYSEC-0001", "PYSEC-0002", "PYSEC-0003"]);
    } finally {
      fake.osv.pageSize = 1000;
    }
  });

  it("reads one server's latest observations in one call", async () => {
    const s = world.servers.find((x) => x.repo?.owner.startsWith("owner") && x.pkg && x.remote)!;
    const obs = await readServerObservations(db, s.name);
    const [row] = await db.select().from(servers).where(eq(servers.name, s.name));
    expect(obs).toMatchObject({ server: { id: row.id, name: s.name, registryStatus: "active", listed: true } });
    expect(obs!.repository).toMatchObject({ url: `https://github.com/${s.repo!.owner}/${s.repo!.name}`.toLowerCase() });
    expect(obs!.packages).toHaveLength(1);
    expect(obs!.remotes).toHaveLength(1);
    expect(await readServerObservations(db, "io.example/does-not-exist")).toBeNull();
  });
});
