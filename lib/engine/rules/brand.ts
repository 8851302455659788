import type { BrandClaim } from "../facts";
import type { PreflightEvidence } from "../types";
import { outcome, uriOrNull, type RuleContext, type RuleOutcome } from "./rule-context";

function claimEvidence(ctx: RuleContext, claims: BrandClaim[]): PreflightEvidence[] {
  const at = ctx.facts.server.listing_observed_at;
  return [
    {
      source: "catalog",
      url: uriOrNull(ctx.facts.server.listing_url),
      // copied member by member so the reason's bytes never depend on how the facts were built
      value: {
        namespace: ctx.facts.server.namespace,
        brand_claims: claims.map((c) => ({
          brand: c.brand,
          verified_by_namespace: c.verified_by_namespace,
          impersonation: c.impersonation,
        })),
      },
      observed_at: at,
      attempted_at: at,
      freshness_enforced: false,
    },
  ];
}

const brands = (claims: BrandClaim[]) => claims.map((c) => c.brand).join(", ");

/** brand_impersonation: the listing presents itself as a brand's own server and its namespace shows it is not. */
export function brandImpersonation(ctx: RuleContext): RuleOutcome {
  const claims = ctx.facts.identity.brand_claims;
  const ns = ctx.facts.server.namespace;
  const offending = claims.filter((c) => c.impersonation);
  if (offending.length > 0) {
    return outcome(
      "brand_impersonation",
      ctx.policy.findings.brand_impersonation,
      `The listing presents itself as ${brands(offending)} while its namespace ${ns} does not belong to ${offending.length === 1 ? "that brand" : "those brands"}.`,
      claimEvidence(ctx, offending),
      false,
    );
  }
  return outcome(
    "brand_impersonation",
    "pass",
    claims.length === 0
      ? "The listing makes no brand claim."
      : `The listing's brand claims (${brands(claims)}) do not present it as another party's server.`,
    claimEvidence(ctx, claims),
    false,
  );
}

/**
 * brand_claim_without_identity: a brand claim (not already an impersonation) that the verified namespace does
 * not establish. A claim whose verification was not determined (null) counts: the claim was observed, the
 * identity behind it was not.
 */
export function brandClaimWithoutIdentity(ctx: RuleContext): RuleOutcome {
  const claims = ctx.facts.identity.brand_claims;
  const ns = ctx.facts.server.namespace;
  const unbacked = claims.filter((c) => !c.impersonation && c.verified_by_namespace !== true);
  if (unbacked.length > 0) {
    return outcome(
      "brand_claim_without_identity",
      ctx.policy.findings.brand_claim_without_identity,
      `The listing claims ${brands(unbacked)} but its namespace ${ns} does not establish that identity.`,
      claimEvidence(ctx, unbacked),
      false,
    );
  }
  const backed = claims.filter((c) => c.verified_by_namespace === true);
  return outcome(
    "brand_claim_without_identity",
    "pass",
    backed.length === 0
      ? "The listing makes no brand claim that would need an identity behind it."
      : `The namespace ${ns} establishes the brand identity the listing claims (${brands(backed)}).`,
    claimEvidence(ctx, claims),
    false,
  );
}
