// Synthetic catalog growth for bench/search: the largest shared snapshot plus generated servers built
// from its own vocabulary (name parts, descriptions, packages, remotes), so the catalog has the shape and
// the word distribution of the real registry at 20,000 servers. Seeded: every run builds the same data.
import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { normalizeRegistryEntry } from "@/lib/catalog/normalize-registry-entry";
import { ingestDump } from "@/lib/catalog/ingest-dump";
import { sqlRows } from "@/lib/reports/sql-rows";
import { seededRandom } from "../tests/helpers/typo";

type Raw = { server: Record<string, any>; _meta: Record<string, any> };

const pick = <T>(xs: readonly T[], rnd: () => number): T => xs[Math.floor(rnd() * xs.length)];

/** Registry-format entries (current API era) for `count` new servers derived from `real`. */
export function syntheticEntries(real: unknown[], count: number, seed = 20_000): Raw[] {
  const rnd = seededRandom(seed);
  const latest = real.map((e) => normalizeRegistryEntry(e)).filter((e) => e.isLatest);
  const words = [...new Set(latest.flatMap((e) => e.name.slice(e.name.indexOf("/") + 1).toLowerCase().split(/[^a-z0-9]+/)))].filter((w) => w.length >= 3);
  const out: Raw[] = [];
  for (let i = 0; i < count; i++) {
    const base = pick(latest, rnd);
    const shape = Math.floor(rnd() * 5);
    const w1 = pick(words, rnd);
    const w2 = pick(words, rnd);
    const part = [`${w1}-mcp`, `${w1}-${w2}`, `mcp-${w1}-server`, `${w1}-${w2}-mcp-server`, `${w1}`][shape];
    const owner = `bench${(i * 7919) % 6007}-${pick(words, rnd)}`;
    const name = `io.github.${owner}/${part}`;
    const published = new Date(Date.UTC(2025, 8, 1) + Math.floor(rnd() * 120 * 86_400_000)).toISOString();
    const doc = {
      $schema: "https://static.modelcontextprotocol.io/schemas/2025-10-17/server.schema.json",
      name,
      description: base.description ?? `${w1} ${w2} tools for agents`,
      ...(rnd() < 0.3 ? { title: `${w1[0].toUpperCase()}${w1.slice(1)} ${w2}` } : {}),
      version: `1.${Math.floor(rnd() * 20)}.${Math.floor(rnd() * 10)}`,
      repository: { url: `https://github.com/${owner}/${part}`, source: "github" },
      ...(rnd() < 0.7
        ? { packages: [{ registryType: rnd() < 0.75 ? "npm" : "pypi", identifier: `@${owner}/${part}`, version: "1.0.0", transport: { type: "stdio" } }] }
        : {}),
      ...(rnd() < 0.35 ? { remotes: [{ type: "streamable-http", url: `https://${part}.${owner}.example/mcp` }] } : {}),
    };
    out.push({
      server: doc,
      _meta: { "io.modelcontextprotocol.registry/official": { status: "active", publishedAt: published, updatedAt: published, isLatest: true } },
    });
  }
  return out;
}

/**
 * Ingests the real snapshot plus synthetic servers up to `total`, then gives most repositories and
 * packages an observation (stars, pushes, existence, advisories looked up) so that trust scores and
 * health vary as they would in a harvested catalog.
 */
export async function buildBenchCatalog(db: Db, real: unknown[], origin: string, total: number): Promise<number> {
  await ingestDump(db, real, origin);
  const [{ n }] = await sqlRows<{ n: number }>(db, sql`select count(*)::int as n from servers where delisted_at is null`);
  const extra = Math.max(0, total - n);
  if (extra) {
    const synthetic = syntheticEntries(real, extra);
    // one dump of everything: a dump is a complete listing, so the real servers stay listed
    await ingestDump(db, [...real, ...synthetic], `${origin}+synthetic`);
  }
  await db.execute(sql`
    insert into repository_observations (repository_id, exists, archived, pushed_at, stars, observed_at, attempted_at)
    select id, (id % 29) <> 0, (id % 17) = 0, now() - ((id % 400) || ' days')::interval, (id * 7919) % 5000, now() - interval '3 hours', now() - interval '3 hours'
    from repositories where id % 5 <> 0
    on conflict (repository_id) do nothing`);
  await db.execute(sql`
    insert into package_observations (ecosystem, identifier, exists, latest_version, deprecated, observed_at, attempted_at)
    select distinct on (ecosystem, identifier) ecosystem, identifier, true, version, null, now() - interval '2 hours', now() - interval '2 hours'
    from server_packages where ecosystem in ('jspkg', 'pypkg')
    on conflict do nothing`);
  // the vulnerability look-up of every listed version: none found
  await db.execute(sql`
    insert into vuln_observations (ecosystem, identifier, listed_version, queried_version, advisories, observed_at, attempted_at)
    select distinct ecosystem, identifier, coalesce(version, ''), version, '[]'::jsonb, now() - interval '2 hours', now() - interval '2 hours'
    from server_packages where ecosystem in ('jspkg', 'pypkg')
    on conflict do nothing`);
  const [{ m }] = await sqlRows<{ m: number }>(db, sql`select count(*)::int as m from servers where delisted_at is null`);
  return m;
}
