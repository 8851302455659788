import { createHash } from "node:crypto";
import { jcsText } from "./canonical-json";
import type { Facts } from "./facts";
import { POLICIES, type PreflightPolicy } from "./policies";

// DESIGN §4: a digest is "sha256:" + the hex SHA-256 of the RFC 8785 (JCS) canonical JSON of a value, so
// anyone can reproduce it with any JCS implementation: sorted keys, no whitespace, ECMAScript number form.

export type Digest = `sha256:${string}`;
export const DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;

/** The RFC 8785 canonical JSON text of a JSON value (undefined object members are left out, as in JSON). */
export function canonicalJson(value: unknown): string {
  const text = jcsText(value);
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

export interface CanonicalFacts {
  /** The RFC 8785 text of the facts (also valid JSON, so it is what an evaluation record stores). */
  text: string;
  digest: Digest;
}

// Facts kept by the record memo (lib/facts/record-cache.ts) are deep-frozen and shared by every request
// about that server until the next catalog write, so their canonical text and digest are worked out once
// per object: canonicalizing ~1 KB of facts and hashing it was the largest allocation of a preflight.
// Facts that are not frozen (tests, `npm run verify`) are canonicalized every time: their owner may still
// change them.
const canonicalOfFrozen = new WeakMap<Facts, CanonicalFacts>();

/** The canonical text and digest of `facts`; computed once per deep-frozen facts object. */
export function canonicalFacts(facts: Facts): CanonicalFacts {
  const kept = canonicalOfFrozen.get(facts);
  if (kept) return kept;
  const text = canonicalJson(facts);
  const out: CanonicalFacts = { text, digest: `sha256:${createHash("sha256").update(text, "utf8").digest("hex")}` };
  if (Object.isFrozen(facts)) canonicalOfFrozen.set(facts, out);
  return out;
}

export function factsDigest(facts: Facts): Digest {
  return canonicalFacts(facts).digest;
}

export interface DecisionInput {
  engine_version: string;
  policy_digest: string;
  facts_digest: string;
  /** The evaluation time (`evaluated_at`) as the result states it. */
  as_of: string;
}

/**
 * Hash of exactly these four members; nothing else goes in, so the digest never depends on key order. Their
 * RFC 8785 text is written out here: four strings under fixed names, already in JCS member order (as_of <
 * engine_version < facts_digest < policy_digest), each string as JSON.stringify writes it, which is JCS's
 * string form. It is what canonicalJson gives for the same object (tests/unit/engine/digest.test.ts), at a
 * fraction of the cost: this runs on every evaluation, where the facts' text is usually kept.
 */
export function decisionInputDigest(input: DecisionInput): Digest {
  const { as_of, engine_version, facts_digest, policy_digest } = input;
  // a stored evaluation read by `npm run verify` may hold anything: other values take the general path
  if (typeof as_of !== "string" || typeof engine_version !== "string" || typeof facts_digest !== "string" || typeof policy_digest !== "string") {
    return sha256Digest({ engine_version, policy_digest, facts_digest, as_of });
  }
  const text =
    `{"as_of":${JSON.stringify(as_of)},"engine_version":${JSON.stringify(engine_version)},` +
    `"facts_digest":${JSON.stringify(facts_digest)},"policy_digest":${JSON.stringify(policy_digest)}}`;
  return `sha256:${createHash("sha256").update(text, "utf8").digest("hex")}`;
}
