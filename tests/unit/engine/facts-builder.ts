import type { Facts, PackageFacts, RemoteFacts, RepositoryFacts } from "@/lib/engine/facts";

// Hand-built facts for engine tests and the bench: a fully observed, healthy server that PASSes every policy,
// with overrides for the one thing a test changes.

export const NOW = new Date("2026-03-01T12:00:00.000Z");
const H = 3_600_000;

/** The ISO time `hours` before `now` (negative: after). */
export function hoursAgo(hours: number, now: Date = NOW): string {
  return new Date(now.getTime() - hours * H).toISOString();
}

export function daysAgo(days: number, now: Date = NOW): string {
  return hoursAgo(days * 24, now);
}

export function repo(over: Partial<RepositoryFacts> = {}, now: Date = NOW): RepositoryFacts {
  return {
    url: "https://github.com/acme/weather-mcp",
    host: "github.com",
    owner: "acme",
    name: "weather-mcp",
    exists: true,
    archived: false,
    pushed_at: daysAgo(10, now),
    stars: 42,
    observed_at: hoursAgo(6, now),
    attempted_at: hoursAgo(6, now),
    ...over,
  };
}

export function jspkg(over: Partial<PackageFacts> = {}, now: Date = NOW): PackageFacts {
  return {
    ecosystem: "jspkg",
    identifier: "@acme/weather-mcp",
    version: "1.4.0",
    url: "https://registry.npmjs.org/@acme/weather-mcp",
    exists: true,
    deprecated: false,
    advisories: [],
    observed_at: hoursAgo(5, now),
    attempted_at: hoursAgo(5, now),
    advisories_observed_at: hoursAgo(4, now),
    advisories_attempted_at: hoursAgo(4, now),
    ...over,
  };
}

export function pypkg(over: Partial<PackageFacts> = {}, now: Date = NOW): PackageFacts {
  return {
    ecosystem: "pypkg",
    identifier: "acme-weather-mcp",
    version: "1.4.0",
    url: "https://pypi.org/pypi/acme-weather-mcp/json",
    exists: true,
    deprecated: null,
    advisories: [],
    observed_at: hoursAgo(5, now),
    attempted_at: hoursAgo(5, now),
    advisories_observed_at: hoursAgo(4, now),
    advisories_attempted_at: hoursAgo(4, now),
    ...over,
  };
}

/** An artifact of an ecosystem the ruleset does not check (oci by default), never looked up. */
export function otherArtifact(ecosystem = "oci", identifier = "ghcr.io/acme/weather-mcp"): PackageFacts {
  return {
    ecosystem,
    identifier,
    version: "1.4.0",
    url: null,
    exists: null,
    deprecated: null,
    advisories: null,
    observed_at: null,
    attempted_at: null,
    advisories_observed_at: null,
    advisories_attempted_at: null,
  };
}

export function remote(over: Partial<RemoteFacts> = {}, now: Date = NOW): RemoteFacts {
  return {
    type: "streamable-http",
    url: "https://mcp.acme.example/mcp",
    live: true,
    http_status: 200,
    observed_at: hoursAgo(1, now),
    attempted_at: hoursAgo(1, now),
    ...over,
  };
}

export interface FactsOverrides {
  server?: Partial<Facts["server"]>;
  identity?: Partial<Facts["identity"]>;
  /** A partial repository merges into the healthy one; null means the listing names none. */
  repository?: Partial<RepositoryFacts> | null;
  packages?: PackageFacts[];
  remotes?: RemoteFacts[];
  lookalikes?: Facts["lookalikes"];
}

export function buildFacts(o: FactsOverrides = {}, now: Date = NOW): Facts {
  return {
    schema_version: 1,
    server: {
      name: "io.github.acme/weather-mcp",
      namespace: "io.github.acme",
      namespace_verification: "github",
      registry_status: "active",
      version: "1.4.0",
      spec_era: "2025-09-29",
      first_seen_at: daysAgo(90, now),
      listing_observed_at: hoursAgo(2, now),
      listing_url: "https://registry.modelcontextprotocol.io/v0/servers?search=io.github.acme%2Fweather-mcp",
      ...o.server,
    },
    identity: {
      first_party: true,
      basis: "github_namespace_owns_repository",
      brand_claims: [],
      ...o.identity,
    },
    repository: o.repository === null ? null : repo(o.repository ?? {}, now),
    packages: o.packages ?? [jspkg({}, now)],
    remotes: o.remotes ?? [remote({}, now)],
    lookalikes: o.lookalikes ?? { count: 0, names: [] },
  };
}
