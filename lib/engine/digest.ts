import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import type { Facts } from "./facts";
import { POLICIES, type PreflightPolicy } from "./policies";

// DESIGN §4: a digest is "sha256:" + the hex SHA-256 of the RFC 8785 (JCS) canonical JSON of a value, so
// anyone can reproduce it with any JCS implementation: sorted keys, no whitespace, ECMAScript number form.

export type Digest = `sha256:${string}`;
export const DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;

/** The RFC 8785 canonical JSON text of a JSON value (undefined object members are left out, as in JSON). */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError("value has no JSON form");
  return text;
}

export function sha256Digest(value: unknown): Digest {
  return `sha256:${createHash("sha256").update(canonicalJson(value), "utf8").digest("hex")}`;
}

// The built-in policies are deeply frozen, so their digests are computed once, on first use.
const builtinDigests = new Map<PreflightPolicy, Digest>();

export function policyDigest(policy: PreflightPolicy): Digest {
  const cached = builtinDigests.get(policy);
  if (cached) return cached;
  const d = sha256Digest(policy);
  if (POLICIES.includes(policy)) builtinDigests.set(policy, d);
  return d;
}

export function factsDigest(facts: Facts): Digest {
  return sha256Digest(facts);
}

export interface DecisionInput {
  engine_version: string;
  policy_digest: string;
  facts_digest: string;
  /** The evaluation time (`evaluated_at`) as the result states it. */
  as_of: string;
}

/** Hash of exactly these four members; nothing else goes in, so the digest never depends on key order. */
export function decisionInputDigest(input: DecisionInput): Digest {
  return sha256Digest({
    engine_version: input.engine_version,
    policy_digest: input.policy_digest,
    facts_digest: input.facts_digest,
    as_of: input.as_of,
  });
}
