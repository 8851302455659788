import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, count, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import {
  changes,
  harvestRuns,
  osvAdvisories,
  packageObservations,
  registrySyncs,
  repositories,
  repositoryObservations,
  servers,
  serverVersions,
  sourceCooldowns,
  vulnObservations,
} from "@/lib/db/schema";
import { runHarvest } from "@/lib/harvest/run-harvest";
import type { FaultKind } from "@/scripts/fake-upstreams/faults";
import type { FakeUpstreams } from "@/scripts/fake-upstreams/server";
import type { GeneratedWorld } from "@/scripts/fake-upstreams/generate";
import { resetDb } from "../helpers/db";
import { startWorld } from "../helpers/harvest-world";
import { dumpCatalog } from "../helpers/table-dump";

const HOUR = 3_600_000;
const HTTP = { retries: 1, backoffMs: 5, timeoutMs: 1_000, maxRetryAfterMs: 1_000 };

/** Every stored fact (values and observation times), without the attempt bookkeeping. */
async function storedFacts(db: Db) {
  const q = async (s: string) => ((await db.execute(s as never)) as unknown as { rows: unknown[] }).rows;
  return {
    repos: await q(`select repository_id, exists, http_status, archived, disabled, fork, pushed_at, stars, owner_login, owner_type, renamed_to, host_repo_id, observed_at
                    from repository_observations order by 1`),
    packages: await q(`select ecosystem, identifier, exists, unpublished, latest_version, versions, deprecated, observed_at
                       from package_observations order by 1, 2`),
    vulns: await q(`select ecosystem, identifier, listed_version, queried_version, advisories, observed_at from vuln_observations order by 1, 2, 3`),
    remotes: await q(`select url, type, live, http_status, tools_hash, tools_count, server_info, observed_at from remote_observations order by 1`),
    advisories: await q(`select id, modified, summary, severity from osv_advisories order by 1`),
  };
}

async function attemptedAt(db: Db, at: Date): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of ["repository_observations", "package_observations", "vuln_observations", "remote_observations"]) {
    const res = (await db.execute(`select count(*)::int as n from ${t} where attempted_at = '${at.toISOString()}'::timestamptz` as never)) as unknown as { rows: { n: number }[] };
    out[t] = res.rows[0].n;
  }
  return out;
}

type Round = Record<"registry" | "github" | "npm" | "pypi" | "osv" | "mcp", FaultKind>;
// Together the two rounds put every fault kind on every source that can show it.
const ROUNDS: [string, Round][] = [
  ["500 / 429 / malformed / reset / timeout", { registry: "500", github: "429", npm: "malformed", pypi: "reset", osv: "timeout", mcp: "timeout" }],
  ["reset / timeout / 429 / 500 / malformed", { registry: "reset", github: "timeout", npm: "429", pypi: "500", osv: "malformed", mcp: "reset" }],
  ["429 everywhere", { registry: "429", github: "malformed", npm: "timeout", pypi: "429", osv: "429", mcp: "timeout" }],
];

describe("harvesting under injected upstream faults", () => {
  let fake: FakeUpstreams;
  let db: Db;
  // cooldowns hold the upstream's real reset time, so this clock starts at the real now
  let now = Math.floor(Date.now() / 1000) * 1000;
  const clock = () => new Date(now);
  // A probe the fake never answers waits its whole timeout, so the faulted runs keep it short; the clean runs
  // keep the default, which a loaded machine's local MCP servers cannot run out of by accident.
  const harvest = (livenessTimeoutMs = 8_000) => {
    process.env.LIVENESS_TIMEOUT_MS = String(livenessTimeoutMs);
    return runHarvest(db, { trigger: "test", http: HTTP, clock });
  };

  beforeAll(async () => {
    ({ fake } = await startWorld(250, 3));
    db = await resetDb();
    const first = await harvest();
    expect(first.status, JSON.stringify(first.errors.slice(0, 3))).toBe("succeeded");
  });
  afterAll(() => fake?.close());

  for (const [name, round] of ROUNDS) {
    it(`${name}: no stored fact is lost or replaced, and the next run completes the work`, async () => {
      const facts = await storedFacts(db);
      const catalog = await dumpCatalog(db);
      const [{ n: changesBefore }] = await db.select({ n: count() }).from(changes);
      now += 25 * HOUR; // everything is due again

      for (const [source, kind] of Object.entries(round)) fake.faults.add({ source, kind, count: Infinity, resetAfterSec: 60 });
      const faulty = await harvest(1_500);
      fake.faults.clear();

      expect(faulty.status).toBe("partial");
      for (const s of ["repo", "jspkg", "pypkg", "vuln", "liveness"] as const) {
        expect(faulty.counts[s].observed, `${s} observed under ${round}`).toBe(0);
        expect(faulty.counts[s].failed, `${s} failed`).toBeGreaterThan(0);
      }
      expect(faulty.counts.registry.failed).toBe(1);
      // values and observation times are exactly as before; only attempts moved
      expect(await storedFacts(db)).toEqual(facts);
      expect(await dumpCatalog(db)).toEqual(catalog);
      const attempted = await attemptedAt(db, clock());
      for (const [t, n] of Object.entries(attempted)) expect(n, t).toBeGreaterThan(0);
      const [{ n: changesAfter }] = await db.select({ n: count() }).from(changes);
      expect(changesAfter).toBe(changesBefore);
      const [lastSync] = await db.select().from(registrySyncs).orderBy(registrySyncs.id).limit(1).offset((await db.select({ n: count() }).from(registrySyncs))[0].n - 1);
      expect(lastSync.status).toBe("failed");
      // a 429 stops its source until the reset the upstream gave
      for (const [source, kind] of Object.entries(round)) {
        if (kind !== "429") continue;
        const ours = { registry: "registry", github: "repo", npm: "jspkg", pypi: "pypkg", osv: "vuln", mcp: "liveness" }[source]!;
        expect(faulty.stopped[ours as keyof typeof faulty.stopped], ours).toMatch(/^rate limited until/);
        const [cd] = await db.select().from(sourceCooldowns).where(eq(sourceCooldowns.source, ours));
        expect(cd.until.getTime()).toBeGreaterThan(Date.now());
      }

      now += HOUR; // past every cooldown
      const recovered = await harvest();
      expect(recovered.status, JSON.stringify(recovered.errors.slice(0, 3))).toBe("succeeded");
      for (const s of ["repo", "jspkg", "pypkg", "vuln", "liveness"] as const) {
        expect(recovered.counts[s].failed, s).toBe(0);
        expect(recovered.counts[s].observed, s).toBe(recovered.counts[s].due);
      }
      const after = await storedFacts(db);
      // the same facts, now observed at this run's time
      const strip = (x: unknown) => JSON.parse(JSON.stringify(x, (k, v) => (k === "observed_at" || k === "advisories_observed_at" ? undefined : v)));
      expect(strip(after)).toEqual(strip(facts));
      for (const table of ["repos", "packages", "remotes"] as const) {
        for (const row of after[table] as { observed_at: string | Date | null }[]) expect(new Date(row.observed_at!).getTime(), table).toBe(now);
      }
    });
  }

  // GitHub's secondary limits answer 403 with quota left; ignoring them risks an integration ban.
  for (const [api, retryAfterSec] of [["GraphQL", 120], ["REST", undefined]] as const) {
    it(`a secondary-limit 403 on ${api} (${retryAfterSec ? "Retry-After" : "message only"}) stops GitHub calls until it has passed, storing no fact`, async () => {
      const token = process.env.GITHUB_TOKEN;
      if (api === "REST") delete process.env.GITHUB_TOKEN;
      try {
        const repos = (await storedFacts(db)).repos;
        expect(repos.length).toBeGreaterThan(100); // more than one GraphQL chunk is due
        now += 25 * HOUR;
        fake.faults.add({ source: "github", kind: "secondary", count: Infinity, resetAfterSec: retryAfterSec });
        const served = () => fake.faults.served["github:secondary"] ?? 0;
        const before = served();
        const sentAt = Date.now();
        const r = await runHarvest(db, { trigger: "test", http: HTTP, clock, sources: ["repo"] });
        const answeredAt = Date.now();

        expect(r.stopped.repo).toMatch(/^rate limited until/);
        // GraphQL: the first query, not retried, and no further chunk; REST: only the requests already in flight (4)
        expect(served() - before).toBe(api === "GraphQL" ? 1 : 4);
        expect(r.calls.repo).toBe(served() - before);
        expect(r.counts.repo.observed).toBe(0);
        const [cd] = await db.select().from(sourceCooldowns).where(eq(sourceCooldowns.source, "repo"));
        const waitMs = (retryAfterSec ?? 60) * 1000;
        expect(cd.until.getTime()).toBeGreaterThanOrEqual(sentAt + waitMs - 1000);
        expect(cd.until.getTime()).toBeLessThanOrEqual(answeredAt + waitMs);
        expect((await storedFacts(db)).repos).toEqual(repos);

        // a run before the cooldown ends sends nothing to GitHub
        const early = await runHarvest(db, { trigger: "test", http: HTTP, clock: () => new Date(cd.until.getTime() - 1000), sources: ["repo"] });
        expect(early.stopped.repo).toMatch(/^cooldown until/);
        expect(early.calls.repo).toBe(0);
      } finally {
        fake.faults.clear();
        process.env.GITHUB_TOKEN = token;
      }
    });
  }
});

// Postgres text and jsonb refuse U+0000, and jsonb a lone surrogate (`\ud800` in JSON: JSON.parse accepts it,
// JSON.stringify writes it back, jsonb refuses it). One such character in one upstream answer failed the write of
// its whole chunk (or the whole registry crawl), every run, since the unwritten items stay first in line.
describe("upstream answers holding text Postgres cannot store", () => {
  let fake: FakeUpstreams;
  let world: GeneratedWorld;
  let db: Db;
  let now = Math.floor(Date.now() / 1000) * 1000;
  const clock = () => new Date(now);
  const sources = ["registry", "repo", "jspkg", "pypkg", "vuln"] as const;
  const harvest = () => runHarvest(db, { trigger: "test", http: HTTP, clock, sources: [...sources] });

  beforeAll(async () => {
    ({ fake, world } = await startWorld(60, 11));
    db = await resetDb();
    const first = await harvest();
    expect(first.status, JSON.stringify(first.errors.slice(0, 3))).toBe("succeeded");
  });
  afterAll(() => fake?.close());

  it("are stored with U+FFFD in their place, and every other answer of the run with them", async () => {
    const bad = "a\u0000b\ud800c";
    const stored = "a\ufffdb\ufffdc";
    // the registry: a new version whose description, title and publisher _meta hold them
    const listed = world.servers.find((s) => s.pkg?.ecosystem === "jspkg" && fake.npm.packages.get(s.pkg.identifier)?.unpublished === false && s.pkg.version)!;
    const entry = world.entries[listed.index];
    entry._meta["io.modelcontextprotocol.registry/official"].updatedAt = new Date(Date.now() - 60_000).toISOString();
    Object.assign(entry.server, { description: bad, title: bad, _meta: { "com.example/publisher": { note: bad } } });
    fake.registry.load([...world.entries, ...world.history]);
    // npm: a deprecation message and a version; PyPI: a project status reason
    const npmPkg = fake.npm.packages.get(listed.pkg!.identifier)!;
    npmPkg.versions[npmPkg.latest] = bad;
    npmPkg.versions[`9.9.9-${bad}`] = null;
    const py = world.servers.find((s) => s.pkg?.ecosystem === "pypkg" && fake.pypi.projects.has(s.pkg.identifier.replace(/[-_.]+/g, "-").toLowerCase()))!;
    fake.pypi.projects.get(py.pkg!.identifier.replace(/[-_.]+/g, "-").toLowerCase())!.status = { status: "deprecated", reason: bad };
    // OSV: an advisory summary on the listed version; GitHub: the owner's type
    fake.osv.add({ id: "GHSA-nul-0001", modified: "2026-02-01T00:00:00Z", summary: bad, severity: "HIGH", ecosystem: "npm", name: listed.pkg!.identifier, versions: [listed.pkg!.version!] });
    const repo = fake.github.repos.get(`${listed.repo!.owner}/${listed.repo!.name}`.toLowerCase())!;
    repo.ownerType = bad as "User";

    now += 25 * HOUR; // everything is due again
    const r = await harvest();
    expect(r.status, JSON.stringify(r.errors.slice(0, 3))).toBe("succeeded");
    for (const s of sources) expect(r.counts[s].failed, s).toBe(0);
    const [run] = await db.select().from(harvestRuns).where(eq(harvestRuns.id, r.runId));
    expect(run.status).toBe("succeeded");

    const [server] = await db.select().from(servers).where(eq(servers.name, listed.name));
    expect(server).toMatchObject({ description: stored, title: stored });
    const [version] = await db.select().from(serverVersions).where(eq(serverVersions.id, server.latestVersionId!));
    expect(version.document).toMatchObject({ description: stored, _meta: { "com.example/publisher": { note: stored } } });
    const [npmObs] = await db.select().from(packageObservations).where(and(eq(packageObservations.ecosystem, "jspkg"), eq(packageObservations.identifier, listed.pkg!.identifier)));
    expect(npmObs.deprecated).toBe(stored);
    expect(npmObs.versions).toHaveProperty([`9.9.9-${stored}`]);
    const [pyObs] = await db.select().from(packageObservations).where(and(eq(packageObservations.ecosystem, "pypkg"), eq(packageObservations.identifier, py.pkg!.identifier)));
    expect(pyObs.deprecated).toBe(`deprecated: ${stored}`);
    const [advisory] = await db.select().from(osvAdvisories).where(eq(osvAdvisories.id, "GHSA-nul-0001"));
    expect(advisory.summary).toBe(stored);
    const [vuln] = await db.select().from(vulnObservations).where(and(eq(vulnObservations.identifier, listed.pkg!.identifier), eq(vulnObservations.listedVersion, listed.pkg!.version!)));
    expect(vuln.advisories).toEqual(expect.arrayContaining([expect.objectContaining({ id: "GHSA-nul-0001", summary: stored })]));
    const [repoRow] = await db.select().from(repositories).where(eq(repositories.id, server.repositoryId!));
    const [repoObs] = await db.select().from(repositoryObservations).where(eq(repositoryObservations.repositoryId, repoRow.id));
    expect(repoObs.ownerType).toBe(stored);

    // and the next crawl of the same listing changes nothing: what is stored is what the listing reads as
    const again = await harvest();
    expect(again.status).toBe("succeeded");
    expect(again.counts.registry.failed).toBe(0);
  });

  it("an error quoting an upstream's refusal that holds a NUL is recorded as the item's failure, and the run goes on", async () => {
    now += 25 * HOUR;
    fake.faults.add({ source: "osv", kind: "nul-400", count: Infinity });
    try {
      const r = await runHarvest(db, { trigger: "test", http: HTTP, clock, sources: ["vuln"] });
      expect(r.counts.vuln.failed).toBeGreaterThan(0);
      expect(r.errors.find((e) => e.source === "vuln")?.error).toMatch(/HTTP 400 bad\ufffdrequest/);
      const failed = await db.select().from(vulnObservations).where(eq(vulnObservations.attemptedAt, clock()));
      expect(failed.length).toBe(r.counts.vuln.failed);
      expect(failed.every((v) => v.lastError?.includes("bad\ufffdrequest"))).toBe(true);
      const [run] = await db.select().from(harvestRuns).where(eq(harvestRuns.id, r.runId));
      expect(run.status).toBe("partial");
    } finally {
      fake.faults.clear();
    }
  });
});
