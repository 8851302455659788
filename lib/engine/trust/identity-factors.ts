import { met, unknown, unmet, type FactorSpec } from "./trust-factor";

const domainOf = (namespace: string) => namespace.toLowerCase().split(".").reverse().join(".");

export const namespaceVerified: FactorSpec = {
  factor: "namespace_verified",
  pillar: "identity",
  max: 5,
  measures: "the registry verified the namespace (GitHub login for io.github.*, DNS for a reverse domain)",
  score(facts) {
    const { namespace, namespace_verification: v } = facts.server;
    if (v === "github") return met(5, `registry: namespace ${namespace} is verified by the GitHub login ${namespace.slice("io.github.".length)}`);
    if (v === "dns") return met(5, `registry: namespace ${namespace} is verified by DNS for ${domainOf(namespace)}`);
    return unmet(`registry: namespace ${namespace} is not of a form the registry verifies`);
  },
};

const BASIS_TEXT: Record<string, string> = {
  github_namespace_owns_repository: "the GitHub namespace owns the listed repository",
  github_namespace_differs_from_repository_owner: "the GitHub namespace differs from the repository owner",
  dns_namespace_serves_every_remote: "every remote endpoint is on the namespace's own domain",
  // the owner GitHub reported differs from the one the listed URL names (lib/facts/derive-identity.ts)
  github_namespace_owns_moved_repository: "the GitHub namespace owns the listed repository, moved to it since it was listed",
  github_repository_moved_to_another_owner: "the listed repository moved to another owner than the GitHub namespace",
};

export const firstParty: FactorSpec = {
  factor: "first_party",
  pillar: "identity",
  max: 10,
  measures: "the publisher is the first party of what it serves (namespace owns the repository, or serves every remote from its domain)",
  score(facts) {
    const { first_party, basis } = facts.identity;
    const why = basis ? (BASIS_TEXT[basis] ?? basis) : null;
    if (first_party === true) return met(10, `catalog: first party, ${why}`);
    if (first_party === false) return unmet(`catalog: not first party, ${why ?? "the namespace does not own what it serves"}`);
    return unknown("first-party identity is not established by public evidence (no GitHub repository owned by a GitHub namespace, no remote on a DNS namespace's domain)");
  },
};

export const brandClaims: FactorSpec = {
  factor: "brand_claims",
  pillar: "identity",
  max: 5,
  measures: "a brand the name or title uses is one the namespace verifies (no claim at all also earns the points)",
  score(facts) {
    const claims = facts.identity.brand_claims;
    if (!claims.length) return met(5, "catalog: the name and title use no known brand");
    const impersonating = claims.filter((c) => c.impersonation).map((c) => c.brand);
    if (impersonating.length) return unmet(`catalog: presents itself as the official server of ${impersonating.join(", ")} from a namespace that brand does not verify`);
    const unverified = claims.filter((c) => c.verified_by_namespace === false).map((c) => c.brand);
    if (unverified.length) return unmet(`catalog: uses the brand ${unverified.join(", ")} from a namespace that brand does not verify`);
    const undetermined = claims.filter((c) => c.verified_by_namespace === null).map((c) => c.brand);
    if (undetermined.length) return unknown(`whether the namespace verifies the brand ${undetermined.join(", ")} is not determined`);
    return met(5, `catalog: uses the brand ${claims.map((c) => c.brand).join(", ")}, verified by the namespace ${facts.server.namespace}`);
  },
};

export const distinctName: FactorSpec = {
  factor: "distinct_name",
  pillar: "identity",
  max: 5,
  measures: "no other listed server has a name part that reads the same (case, separators and homoglyphs folded)",
  score(facts) {
    const { count, names } = facts.lookalikes;
    if (count === 0) return met(5, "catalog: no other listed server has a name part that reads the same");
    const shown = names.slice(0, 3).join(", ");
    return unmet(`catalog: ${count} other listed ${count === 1 ? "server has" : "servers have"} a name part that reads the same (${shown}${count > 3 ? ", …" : ""})`);
  },
};

export const IDENTITY_FACTORS = [namespaceVerified, firstParty, brandClaims, distinctName];
