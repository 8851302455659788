import { z } from "zod";

// The facts object of DESIGN §5, schema_version 1: everything a decision rests on, and nothing else.
// A value that was not observed is null, never a guess. Times are ISO 8601 strings. Every field is
// present (null rather than absent) so that one set of facts has exactly one canonical JSON form and
// therefore one digest.

export const FACTS_SCHEMA_VERSION = 1 as const;

/** The ecosystems whose packages the ruleset checks; every other artifact is `not_applicable`. */
export const CHECKED_PACKAGE_ECOSYSTEMS = ["jspkg", "pypkg"] as const;
export type CheckedPackageEcosystem = (typeof CHECKED_PACKAGE_ECOSYSTEMS)[number];

export interface ServerFacts {
  /** Exact canonical registry name, e.g. `io.github.owner/name`. */
  name: string;
  /** The part before the first `/`. */
  namespace: string;
  /** How the registry verified the namespace: GitHub login (`io.github.*`) or DNS (reverse domain). */
  namespace_verification: "github" | "dns" | null;
  /** As the registry last reported it (`active`, `deprecated`, `deleted`, …); null when it did not say. */
  registry_status: string | null;
  version: string | null;
  /** server.json schema date, e.g. `2025-09-29`. */
  spec_era: string | null;
  first_seen_at: string | null;
  /** When the listing these facts come from was last read from the registry. Never null: a server
   *  without a listing is not in the catalog. It is also the attempt context cited for facts that were
   *  never looked up. */
  listing_observed_at: string;
  /** Where a person can read the listing; null when no public address is known. */
  listing_url: string | null;
}

export interface BrandClaim {
  /** The brand the listing's name, title or description claims, e.g. `Stripe`. */
  brand: string;
  /** true: the verified namespace belongs to the brand; false: it does not; null: not determined. */
  verified_by_namespace: boolean | null;
  /** The listing presents itself as the brand's own server while the namespace shows it is not. */
  impersonation: boolean;
}

export interface IdentityFacts {
  /** true: the publisher is the first party of what it serves; false: it is not; null: not established. */
  first_party: boolean | null;
  /** How first_party was established (e.g. `github_namespace_owns_repository`), null when it was not. */
  basis: string | null;
  brand_claims: BrandClaim[];
}

export interface RepositoryFacts {
  /** As the listing names it (normalised); may not be a valid URL when the listing's was not. */
  url: string;
  host: string | null;
  owner: string | null;
  name: string | null;
  /** false: the code host answered that it does not exist (or is gone). */
  exists: boolean | null;
  archived: boolean | null;
  pushed_at: string | null;
  stars: number | null;
  /** Last successful observation. */
  observed_at: string | null;
  /** Last attempt, successful or not. */
  attempted_at: string | null;
}

export interface Advisory {
  id: string;
  summary: string | null;
  severity: string | null;
}

export interface PackageFacts {
  /** Ecosystem word of DESIGN §3: jspkg, pypkg, oci, nuget, mcpb, or the registry type as listed. */
  ecosystem: string;
  identifier: string;
  version: string | null;
  /** Where the package record was looked up; null when unknown. */
  url: string | null;
  exists: boolean | null;
  /** Deprecation of the listed version (jspkg); null when not looked up or not applicable. */
  deprecated: boolean | null;
  /** Advisories affecting the listed version; [] when the look-up found none; null when not looked up. */
  advisories: Advisory[] | null;
  observed_at: string | null;
  attempted_at: string | null;
  /** Times of the vulnerability-database look-up, which is separate from the package registry's. */
  advisories_observed_at: string | null;
  advisories_attempted_at: string | null;
}

export interface RemoteFacts {
  /** Transport as listed: `streamable-http`, `sse`. */
  type: string;
  url: string;
  /** Outcome of the last liveness observation: true up, false down, null never observed. */
  live: boolean | null;
  http_status: number | null;
  /** Last observation that produced an answer (up or down). */
  observed_at: string | null;
  /** Last probe attempt, answered or not. */
  attempted_at: string | null;
}

export interface LookalikeFacts {
  /** Other catalog servers sharing this server's name part under another namespace. */
  count: number;
  names: string[];
}

export interface Facts {
  schema_version: typeof FACTS_SCHEMA_VERSION;
  server: ServerFacts;
  identity: IdentityFacts;
  /** null when the listing names no repository. */
  repository: RepositoryFacts | null;
  packages: PackageFacts[];
  remotes: RemoteFacts[];
  lookalikes: LookalikeFacts;
}

const isoTime = z.iso.datetime({ offset: true });
const nullableTime = isoTime.nullable();

export const brandClaimSchema = z.strictObject({
  brand: z.string().min(1),
  verified_by_namespace: z.boolean().nullable(),
  impersonation: z.boolean(),
});

export const advisorySchema = z.strictObject({
  id: z.string().min(1),
  summary: z.string().nullable(),
  severity: z.string().nullable(),
});

export const factsSchema = z.strictObject({
  schema_version: z.literal(FACTS_SCHEMA_VERSION),
  server: z.strictObject({
    name: z.string().min(1).max(300),
    namespace: z.string().min(1),
    namespace_verification: z.enum(["github", "dns"]).nullable(),
    registry_status: z.string().nullable(),
    version: z.string().nullable(),
    spec_era: z.string().nullable(),
    first_seen_at: nullableTime,
    listing_observed_at: isoTime,
    listing_url: z.string().nullable(),
  }),
  identity: z.strictObject({
    first_party: z.boolean().nullable(),
    basis: z.string().nullable(),
    brand_claims: z.array(brandClaimSchema),
  }),
  repository: z
    .strictObject({
      url: z.string().min(1),
      host: z.string().nullable(),
      owner: z.string().nullable(),
      name: z.string().nullable(),
      exists: z.boolean().nullable(),
      archived: z.boolean().nullable(),
      pushed_at: nullableTime,
      stars: z.number().int().nonnegative().nullable(),
      observed_at: nullableTime,
      attempted_at: nullableTime,
    })
    .nullable(),
  packages: z.array(
    z.strictObject({
      ecosystem: z.string().min(1),
      identifier: z.string().min(1),
      version: z.string().nullable(),
      url: z.string().nullable(),
      exists: z.boolean().nullable(),
      deprecated: z.boolean().nullable(),
      advisories: z.array(advisorySchema).nullable(),
      observed_at: nullableTime,
      attempted_at: nullableTime,
      advisories_observed_at: nullableTime,
      advisories_attempted_at: nullableTime,
    }),
  ),
  remotes: z.array(
    z.strictObject({
      type: z.string().min(1),
      url: z.string().min(1),
      live: z.boolean().nullable(),
      http_status: z.number().int().nullable(),
      observed_at: nullableTime,
      attempted_at: nullableTime,
    }),
  ),
  lookalikes: z.strictObject({
    count: z.number().int().nonnegative(),
    names: z.array(z.string()),
  }),
});

// The interfaces above are the documentation; these lines make the compiler hold them equal to the schema.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const factsTypeMatchesSchema: Same<Facts, z.infer<typeof factsSchema>> = true;
void factsTypeMatchesSchema;
