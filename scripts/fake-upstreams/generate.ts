import type { FakeUpstreams } from "./server";

const OFFICIAL = "io.modelcontextprotocol.registry/official";
type Obj = Record<string, any>;

/** A small deterministic PRNG (mulberry32), so a seed always generates the same world. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface GeneratedServer {
  index: number;
  name: string;
  version: string;
  repo: { owner: string; name: string } | null;
  pkg: { ecosystem: "jspkg" | "pypkg"; identifier: string; version: string | null } | null;
  remote: { type: "streamable-http" | "sse"; id: string } | null;
}

export interface GeneratedWorld {
  servers: GeneratedServer[];
  /** The latest registry row of each server, by index. */
  entries: Obj[];
  /** Superseded rows (older versions), still listed. */
  history: Obj[];
  /** Distinct code-host repositories listed. */
  repos: number;
  /** Distinct jspkg/pypkg packages listed. */
  packages: number;
  /** Distinct (package, version) vulnerability look-ups. */
  packageVersions: number;
  /** Distinct advisory ids that affect listed versions. */
  advisoryIds: number;
  remotes: number;
}

const T0 = Date.parse("2026-01-01T00:00:00Z");

function entryOf(s: GeneratedServer, mcpBase: string, at: number, isLatest = true): Obj {
  const server: Obj = {
    $schema: "https://static.modelcontextprotocol.io/schemas/2025-10-17/server.schema.json",
    name: s.name,
    description: `Generated server ${s.index}`,
    version: s.version,
  };
  if (s.repo) server.repository = { url: `https://github.com/${s.repo.owner}/${s.repo.name}`, source: "github" };
  if (s.pkg) {
    server.packages = [
      {
        registryType: s.pkg.ecosystem === "jspkg" ? "npm" : "pypi",
        identifier: s.pkg.identifier,
        ...(s.pkg.version ? { version: s.pkg.version } : {}),
        transport: { type: "stdio" },
      },
    ];
  }
  if (s.remote) server.remotes = [{ type: s.remote.type, url: `${mcpBase}/${s.remote.type === "sse" ? "sse" : "mcp"}/${s.remote.id}` }];
  const when = new Date(at).toISOString();
  return { server, _meta: { [OFFICIAL]: { status: "active", publishedAt: when, updatedAt: when, isLatest } } };
}

/**
 * A catalog of `count` servers and every upstream's answers about it, loaded
 * into the fake upstreams: repositories (some shared monorepos, some gone,
 * blocked, renamed or archived), npm and PyPI packages (some missing,
 * unpublished, deprecated or yanked; some listings unpinned), advisories on a
 * few listed versions (ids shared across packages), MCP endpoints (some down).
 */
export function generateWorld(fake: FakeUpstreams, count: number, seed = 1): GeneratedWorld {
  const rand = rng(seed);
  const servers: GeneratedServer[] = [];
  const repos = new Set<string>();
  const pkgs = new Set<string>();
  const pkgVersions = new Set<string>();
  const advisories = new Set<string>();
  let remotes = 0;
  for (let i = 0; i < count; i++) {
    const r = rand();
    // 8% of servers share one of a few hundred monorepos; 4% list no repository
    const repo = r < 0.04 ? null : r < 0.12 ? { owner: `mono${i % 250}`, name: "servers" } : { owner: `owner${i % 5000}`, name: `repo-${i}` };
    const p = rand();
    const ecosystem = p < 0.6 ? "jspkg" : p < 0.9 ? "pypkg" : null;
    const pinned = rand() > 0.1;
    const identifier = ecosystem === "jspkg" ? (i % 2 ? `@gen${i % 97}/server-${i}` : `gen-server-${i}`) : `Gen_Server.${i}`;
    const version = `1.${i % 7}.${i % 3}`;
    const remoteRoll = rand();
    const s: GeneratedServer = {
      index: i,
      name: `io.github.gen${i % 1000}/server-${i}`,
      version,
      repo,
      pkg: ecosystem ? { ecosystem, identifier, version: pinned ? version : null } : null,
      remote: remoteRoll < 0.07 ? { type: "streamable-http", id: `s${i}` } : remoteRoll < 0.09 ? { type: "sse", id: `s${i}` } : null,
    };
    servers.push(s);

    if (repo) {
      const key = `${repo.owner}/${repo.name}`.toLowerCase();
      if (!repos.has(key)) {
        repos.add(key);
        const roll = rand();
        const base = { owner: repo.owner, name: repo.name, id: 100_000 + repos.size, stars: Math.floor(rand() * 5000), pushedAt: new Date(T0 - Math.floor(rand() * 400) * 86_400_000).toISOString(), ownerType: "User" as const };
        // gone 0.5% (GraphQL says NOT_FOUND); legal and ToS blocks 0.03% each (REST tells them apart)
        if (roll < 0.005) fake.github.set({ ...base, archived: false, status: 404 });
        else if (roll < 0.0053) fake.github.set({ ...base, archived: false, status: 451 });
        else if (roll < 0.0056) fake.github.set({ ...base, archived: false, status: 403 });
        else if (roll < 0.0106) {
          fake.github.set({ ...base, archived: false, status: 200, renamedTo: `${repo.owner}/${repo.name}-renamed` });
          fake.github.set({ ...base, id: base.id + 10_000_000, name: `${repo.name}-renamed`, archived: false, status: 200 });
        } else fake.github.set({ ...base, archived: roll > 0.97, status: 200 });
      }
    }
    if (s.pkg) {
      pkgs.add(`${s.pkg.ecosystem}:${identifier}`);
      pkgVersions.add(`${s.pkg.ecosystem}:${identifier}@${version}`);
      const versions = ["0.9.0", version];
      const roll = rand();
      if (s.pkg.ecosystem === "jspkg") {
        if (roll < 0.01) {
          /* missing: never published */
        } else
          fake.npm.set({
            name: identifier,
            latest: version,
            versions: Object.fromEntries(versions.map((v) => [v, roll > 0.98 ? "no longer maintained" : null])),
            unpublished: roll < 0.015,
          });
      } else if (roll >= 0.01) {
        fake.pypi.set({ name: identifier, latest: version, versions: Object.fromEntries(versions.map((v) => [v, v === version && roll > 0.99])) });
      }
      if (rand() < 0.02) {
        // one of 150 advisories, shared across packages
        const id = `GHSA-gen-${Math.floor(rand() * 150)}`;
        advisories.add(id);
        fake.osv.add({
          id,
          modified: "2026-01-01T00:00:00Z",
          summary: `Generated advisory ${id}`,
          severity: "HIGH",
          ecosystem: s.pkg.ecosystem === "jspkg" ? "npm" : "PyPI",
          name: identifier,
          versions: [version],
        });
      }
    }
    if (s.remote) {
      remotes++;
      fake.mcp.set(s.remote.id, {
        tools: [
          { name: "search", description: `search ${i}` },
          { name: "fetch", description: "fetch a page" },
        ],
        ...(rand() < 0.01 ? { status: 500 } : {}),
      });
    }
  }
  const entries = servers.map((s) => entryOf(s, fake.url, T0 + s.index * 1000));
  fake.registry.load(entries);
  return { servers, entries, history: [], repos: repos.size, packages: pkgs.size, packageVersions: pkgVersions.size, advisoryIds: advisories.size, remotes };
}

/**
 * Publishes a new version of `fraction` of the servers (registry rows updated
 * now; the new version pins a new package release that the package registries
 * also gain), as a day's worth of change for an incremental run.
 */
export function mutateWorld(fake: FakeUpstreams, world: GeneratedWorld, fraction: number, seed = 2): GeneratedServer[] {
  const rand = rng(seed);
  const changed: GeneratedServer[] = [];
  const now = Date.now();
  for (const s of world.servers) {
    if (rand() >= fraction) continue;
    const old = world.entries[s.index];
    old._meta[OFFICIAL] = { ...old._meta[OFFICIAL], isLatest: false, updatedAt: new Date(now).toISOString() };
    const major = Number(s.version.split(".")[0]) + 1;
    s.version = `${major}.0.0`;
    if (s.pkg) {
      if (s.pkg.version) s.pkg.version = s.version;
      if (s.pkg.ecosystem === "jspkg") {
        const p = fake.npm.packages.get(s.pkg.identifier);
        if (p && !p.unpublished) {
          p.versions[s.version] = null;
          p.latest = s.version;
        }
      } else {
        const p = fake.pypi.projects.get(s.pkg.identifier.replace(/[-_.]+/g, "-").toLowerCase());
        if (p) {
          p.versions[s.version] = false;
          p.latest = s.version;
        }
      }
    }
    world.history.push(old);
    world.entries[s.index] = entryOf(s, fake.url, now);
    changed.push(s);
  }
  fake.registry.load([...world.history, ...world.entries]);
  return changed;
}
