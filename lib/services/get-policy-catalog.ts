import { POLICIES, RULESET, policyDigest, type PolicyId } from "@/lib/engine";
import type { PolicyCatalog } from "@/lib/schemas/preflight";

/** GET /v1/policies: the three immutable policies, the ruleset they run, and their digests. */
export function getPolicyCatalog(): PolicyCatalog {
  const policy_digests = Object.fromEntries(POLICIES.map((p) => [p.id, policyDigest(p)])) as Record<PolicyId, string>;
  return { ok: true, policies: POLICIES.map((p) => structuredClone(p)) as PolicyCatalog["policies"], ruleset: RULESET, policy_digests, audit_signed: false };
}
