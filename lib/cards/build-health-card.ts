import { computeHealth } from "@/lib/engine/health";
import { verifiedStatus } from "@/lib/engine/verified";
import { computeTrustScore, type TrustScore } from "@/lib/engine/trust-score";
import type { Facts } from "@/lib/engine/facts";
import type { ListingDetails } from "@/lib/facts/load-facts";
import type { HealthCard } from "@/lib/schemas/health-card";
import { siteUrl } from "@/lib/config";
import { badgePath, serverPagePath } from "./links";

/** A month of months_since_push: the mean Gregorian month, so every machine agrees. */
const MONTH_MS = 30.436875 * 86_400_000;

const oldest = (times: (string | null)[]): string | null => times.filter((t): t is string => !!t).sort()[0] ?? null;

/**
 * The evidence card of one server (contract HealthCard): the contract's fields from the pure engine
 * functions (computeHealth, computeVerified, computeTrustScore) plus what a person reading it wants next:
 * the listing, the repository, packages, remotes, lookalikes and when each source was observed.
 * Pure; `trust` may be passed when the caller already computed it (search ranks by it).
 */
export function buildHealthCard(facts: Facts, listing: ListingDetails, now: Date, trust: TrustScore = computeTrustScore(facts, now)): HealthCard {
  const { health, problems } = computeHealth(facts, now);
  const repo = facts.repository;
  const pushedMs = repo?.pushed_at ? Date.parse(repo.pushed_at) : NaN;
  const jspkgs = facts.packages.filter((p) => p.ecosystem === "jspkg");
  const checked = facts.packages.filter((p) => p.ecosystem === "jspkg" || p.ecosystem === "pypkg");
  // a package its registry answered is missing has no version to look up (nor does the harvester ask about it)
  const lookedUp = checked.filter((p) => p.exists !== false);
  const base = siteUrl();
  // one evaluation of the contract's verified: the status says it, and whether it is only not observed yet
  const verifiedAs = verifiedStatus(facts, now);

  return {
    server_name: facts.server.name,
    health,
    health_problems: problems,
    verified: verifiedAs === "verified",
    repo_stars: repo?.exists === false ? null : (repo?.stars ?? null),
    months_since_push: Number.isNaN(pushedMs) ? null : Math.max(0, Math.round(((now.getTime() - pushedMs) / MONTH_MS) * 10) / 10),
    repo_archived: repo?.archived ?? null,
    jspkg_deprecated: jspkgDeprecated(jspkgs),
    name_collision_count: facts.lookalikes.count,
    // the contract's registry_status is a string; a listing that reported none reads "unknown"
    registry_status: facts.server.registry_status ?? "unknown",
    trust_score: trust.score,
    trust_factors: trust.factors.map((f) => ({ factor: f.factor, points: f.points, pillar: f.pillar, evidence: f.evidence, max: f.max, status: f.status })),
    trust_pillars: trust.pillars.map((p) => ({ pillar: p.pillar, points: p.points, max: p.max })),

    verified_status: verifiedAs,
    title: listing.title,
    description: listing.description,
    namespace: facts.server.namespace,
    namespace_verification: facts.server.namespace_verification,
    version: facts.server.version,
    website_url: listing.website_url,
    first_seen_at: facts.server.first_seen_at,
    delisted_at: listing.delisted_at,
    identity: { ...facts.identity, brand_claims: facts.identity.brand_claims.map((c) => ({ ...c })) },
    repository: repo ? { ...repo } : null,
    packages: facts.packages.map((p) => ({
      ecosystem: p.ecosystem,
      identifier: p.identifier,
      version: p.version,
      url: p.url,
      exists: p.exists,
      deprecated: p.deprecated,
      advisories: p.advisories ? p.advisories.map((a) => a.id) : null,
      observed_at: p.observed_at,
      advisories_observed_at: p.advisories_observed_at,
    })),
    remotes: facts.remotes.map((r) => ({ type: r.type, url: r.url, live: r.live, http_status: r.http_status, observed_at: r.observed_at })),
    lookalike_names: facts.lookalikes.names,
    evidence_times: {
      registry: facts.server.listing_observed_at,
      repo: repo?.observed_at ?? null,
      packages: checked.length && checked.every((p) => p.observed_at) ? oldest(checked.map((p) => p.observed_at)) : null,
      vuln: lookedUp.length && lookedUp.every((p) => p.advisories_observed_at) ? oldest(lookedUp.map((p) => p.advisories_observed_at)) : null,
      liveness: facts.remotes.length && facts.remotes.every((r) => r.observed_at) ? oldest(facts.remotes.map((r) => r.observed_at)) : null,
    },
    links: {
      page: `${base}${serverPagePath(facts.server.name)}`,
      badge: `${base}${badgePath(facts.server.name)}`,
      api: `${base}/v1/server?name=${encodeURIComponent(facts.server.name)}`,
      registry: facts.server.listing_url,
    },
  };
}

/** true when any listed jspkg version is deprecated; false when every one was observed not deprecated; else null. */
function jspkgDeprecated(jspkgs: Facts["packages"]): boolean | null {
  if (!jspkgs.length) return null;
  if (jspkgs.some((p) => p.deprecated === true)) return true;
  return jspkgs.every((p) => p.deprecated === false) ? false : null;
}
