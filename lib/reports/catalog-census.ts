import { sql } from "drizzle-orm";
import type { Queryable } from "@/lib/db/client";
import { servers } from "@/lib/db/schema";
import { computeHealth, type Health } from "@/lib/engine/health";
import { verifiedStatus } from "@/lib/engine/verified";
import { loadFactsMany } from "@/lib/facts/load-facts";

/** Tallies over every listed server's facts, shared by the stats and coverage reports. */
export interface CatalogCensus {
  listed: number;
  /** Read with the listed names, so that listed + delisted is the catalog a report counts throughout. */
  delisted: number;
  /** Listed servers by the status the registry reported (`unknown` when it reported none). */
  byRegistryStatus: Record<string, number>;
  health: Record<Health, number>;
  problems: Record<string, number>;
  verified: number;
  /** Not verified only because evidence is not observed yet (verifiedStatus `unknown`): neither verified nor known not to be. */
  verifiedUnknown: number;
  /** Servers listing at least one artifact of each kind (package ecosystems, and `remote`). */
  artifacts: Record<string, number>;
  namespaceVerification: { github: number; dns: number; none: number };
  firstParty: { yes: number; no: number; unknown: number };
  firstPartyBasis: Record<string, number>;
  brandClaims: { servers: number; unverified: number; impersonation: number };
  lookalikes: { servers: number };
}

/** One pass over the facts of every listed server (batched: a handful of queries per 2,000 servers). */
export async function computeCatalogCensus(db: Queryable, now: Date): Promise<CatalogCensus> {
  // one statement: the listed servers and the delisted count are of the same listing
  const rows = await db.select({ name: servers.name, status: servers.registryStatus, delisted: sql<boolean>`${servers.delistedAt} is not null` }).from(servers);
  const listedRows = rows.filter((r) => !r.delisted);
  const facts = await loadFactsMany(db, listedRows.map((r) => r.name));
  const c: CatalogCensus = {
    listed: facts.size,
    delisted: rows.length - listedRows.length,
    byRegistryStatus: {},
    health: { healthy: 0, issues: 0, unknown: 0 },
    problems: {},
    verified: 0,
    verifiedUnknown: 0,
    artifacts: {},
    namespaceVerification: { github: 0, dns: 0, none: 0 },
    firstParty: { yes: 0, no: 0, unknown: 0 },
    firstPartyBasis: {},
    brandClaims: { servers: 0, unverified: 0, impersonation: 0 },
    lookalikes: { servers: 0 },
  };
  const inc = (m: Record<string, number>, k: string) => (m[k] = (m[k] ?? 0) + 1);
  for (const r of listedRows) if (facts.has(r.name)) inc(c.byRegistryStatus, r.status ?? "unknown");
  for (const f of facts.values()) {
    const h = computeHealth(f, now);
    c.health[h.health]++;
    for (const p of h.problems) inc(c.problems, p);
    const v = verifiedStatus(f, now);
    if (v === "verified") c.verified++;
    else if (v === "unknown") c.verifiedUnknown++;
    for (const kind of new Set([...f.packages.map((p) => p.ecosystem), ...(f.remotes.length ? ["remote"] : [])])) inc(c.artifacts, kind);
    c.namespaceVerification[f.server.namespace_verification ?? "none"]++;
    const fp = f.identity.first_party;
    c.firstParty[fp === true ? "yes" : fp === false ? "no" : "unknown"]++;
    if (f.identity.basis) inc(c.firstPartyBasis, f.identity.basis);
    const claims = f.identity.brand_claims;
    if (claims.length) c.brandClaims.servers++;
    if (claims.some((b) => b.verified_by_namespace !== true && !b.impersonation)) c.brandClaims.unverified++;
    if (claims.some((b) => b.impersonation)) c.brandClaims.impersonation++;
    if (f.lookalikes.count > 0) c.lookalikes.servers++;
  }
  c.byRegistryStatus = sortKeys(c.byRegistryStatus);
  c.problems = sortKeys(c.problems);
  c.artifacts = sortKeys(c.artifacts);
  c.firstPartyBasis = sortKeys(c.firstPartyBasis);
  return c;
}

export function sortKeys<T>(m: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(m).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
