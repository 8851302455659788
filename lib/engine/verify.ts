import { canonicalJson, decisionInputDigest, factsDigest, policyDigest } from "./digest";
import { ENGINE_VERSION } from "./engine-version";
import { evaluate } from "./evaluate";
import { factsSchema, type Facts } from "./facts";
import { getPolicy } from "./policies";
import { dateTimeSchema, evaluationDetailResponseSchema, evaluationDetailSchema, preflightResultSchema } from "@/lib/schemas/preflight";

export interface VerifyReport {
  /** true when every recomputed value equals the stated one. */
  ok: boolean;
  /** One sentence per value that differs or cannot be checked. */
  mismatches: string[];
  /** Things worth knowing that are not mismatches (e.g. the result names another engine version). */
  warnings: string[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

// The members each accepted shape has (the contract's closed objects). A member outside them is reported: a
// copy with `"verified": true` or `"signature": ...` added is not what the service returned, and verify must not
// pass it as checked when it changes what its reader believes.
const RESPONSE_MEMBERS = new Set(Object.keys(evaluationDetailResponseSchema.shape));
const EVALUATION_MEMBERS = new Set(Object.keys(evaluationDetailSchema.shape));
const RESULT_MEMBERS = new Set(Object.keys(preflightResultSchema.shape));
const RESULT_POLICY_MEMBERS = new Set(Object.keys(preflightResultSchema.shape.policy.shape));

/** The members of `obj` outside `known`, each as `<where>.<name>` (or just the name at the top). */
function unknownMembers(obj: Obj, known: ReadonlySet<string>, where: string): string[] {
  return Object.keys(obj)
    .filter((k) => !known.has(k))
    .map((k) => (where ? `${where}.${k}` : k));
}

/**
 * The stated values, from an EvaluationDetailResponse (`{ok, evaluation}`), its `evaluation`, or a PreflightResult,
 * and the members none of those shapes has.
 */
function statedValues(input: unknown): { ev: Obj; unknown: string[]; result: boolean } | null {
  if (!isObj(input)) return null;
  if (isObj(input.evaluation)) {
    const ev = input.evaluation;
    return { ev, unknown: [...unknownMembers(input, RESPONSE_MEMBERS, ""), ...unknownMembers(ev, EVALUATION_MEMBERS, "evaluation")], result: false };
  }
  if (isObj(input.policy)) {
    // PreflightResult shape: policy is {id, revision, digest}
    const p = input.policy;
    return {
      ev: { ...input, policy_id: p.id, policy_revision: p.revision, policy_digest: p.digest },
      unknown: [...unknownMembers(input, RESULT_MEMBERS, ""), ...unknownMembers(p, RESULT_POLICY_MEMBERS, "policy")],
      result: true,
    };
  }
  return { ev: input, unknown: unknownMembers(input, EVALUATION_MEMBERS, ""), result: false };
}

const REQUIRED = [
  "server_name",
  "policy_id",
  "policy_digest",
  "facts",
  "facts_digest",
  "decision_input_digest",
  "engine_version",
  "evaluated_at",
  "valid_until",
  "decision",
  "reasons",
] as const;

/** Stated by a PreflightResult only (an EvaluationDetail has neither): recomputed and compared like the rest. */
const RESULT_ONLY = ["meaning", "limitations"] as const;

const FIXED_VALUES: readonly [string, unknown][] = [
  ["decision_scope", "public_evidence_policy"],
  ["audit_signed", false],
  ["ruleset_id", "preflight-ruleset"],
  ["ruleset_revision", 1],
];
const ALWAYS_STATED = new Set(["decision_scope", "audit_signed"]);

/**
 * Recomputes, offline, everything an evaluation states that follows from its facts, policy id, evaluation time
 * and engine version: the three digests, the decision, the reasons (byte for byte in canonical JSON) and
 * valid_until; for a PreflightResult also meaning and limitations. Never throws on malformed input; it reports.
 */
export function verifyEvaluation(input: unknown): VerifyReport {
  const mismatches: string[] = [];
  const warnings: string[] = [];
  try {
    check(input, mismatches, warnings);
  } catch (e) {
    // what the checks do not foresee, such as a 300 MB string in the facts that no reason text can hold
    // (RangeError: Invalid string length): one line of report, not a stack trace from `npm run verify`
    mismatches.push(`the evaluation cannot be checked: ${(e as Error).message}`);
  }
  return { ok: mismatches.length === 0, mismatches, warnings };
}

function check(input: unknown, mismatches: string[], warnings: string[]): void {
  const stated = statedValues(input);
  if (!stated) {
    mismatches.push("input is not an evaluation object");
    return;
  }
  const { ev } = stated;
  if (stated.unknown.length) mismatches.push(`${stated.unknown.join(", ")}: not a member of an evaluation`);
  // the response and the PreflightResult state ok, which is always true (an answer saying false is an error body)
  if (isObj(input) && input.ok !== undefined && input.ok !== true) mismatches.push(`ok is ${show(input.ok)}, but it is always true`);
  // A PreflightResult states what its decision does not cover (meaning, limitations): a copy without them reads as
  // a PASS with no limits, e.g. over an OCI image it never evaluated, so their absence is a mismatch, not a skip.
  const missing = [...REQUIRED, ...(stated.result ? RESULT_ONLY : [])].filter((k) => ev[k] === undefined);
  if (missing.length) {
    mismatches.push(`evaluation lacks ${missing.join(", ")}`);
    return;
  }

  const policy = typeof ev.policy_id === "string" ? getPolicy(ev.policy_id) : undefined;
  if (!policy) {
    mismatches.push(`policy_id ${String(ev.policy_id)} is not a built-in policy`);
    return;
  }
  // values the contract fixes: a result stating anything else is not one this engine (or any) produced
  for (const [field, fixed] of FIXED_VALUES) {
    if (ev[field] === undefined) {
      // every shape verify accepts states these two (EvaluationSummary and PreflightResult require them)
      if (ALWAYS_STATED.has(field)) mismatches.push(`evaluation lacks ${field}, which is always ${JSON.stringify(fixed)}`);
    } else if (ev[field] !== fixed) mismatches.push(`${field} is ${JSON.stringify(ev[field])}, but it is always ${JSON.stringify(fixed)}`);
  }
  if (ev.policy_revision !== undefined && ev.policy_revision !== policy.revision) {
    mismatches.push(`policy_revision is ${JSON.stringify(ev.policy_revision)}, but ${policy.id} has revision ${policy.revision}`);
  }
  const policy_digest = policyDigest(policy);
  if (ev.policy_digest !== policy_digest) {
    mismatches.push(`policy_digest is ${String(ev.policy_digest)}, recomputed ${policy_digest}`);
  }

  let facts_digest: string;
  try {
    facts_digest = factsDigest(ev.facts as Facts);
  } catch (e) {
    mismatches.push(`facts have no canonical JSON form: ${(e as Error).message}`);
    return;
  }
  if (ev.facts_digest !== facts_digest) {
    mismatches.push(`facts_digest is ${String(ev.facts_digest)}, recomputed ${facts_digest}`);
  }

  const engine_version = String(ev.engine_version);
  const evaluated_at = String(ev.evaluated_at);
  const input_digest = decisionInputDigest({ engine_version, policy_digest, facts_digest, as_of: evaluated_at });
  if (ev.decision_input_digest !== input_digest) {
    mismatches.push(`decision_input_digest is ${String(ev.decision_input_digest)}, recomputed ${input_digest}`);
  }

  const parsed = factsSchema.safeParse(ev.facts);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    mismatches.push(`facts do not match facts schema 1 (${first.path.join(".") || "(root)"}: ${first.message})`);
    return;
  }
  // an RFC 3339 date-time (or the engine's own form, which for years past 9999 is not one), as valid_until below:
  // with no offset Date reads local time, so the rules would be re-run at another instant in each time zone and
  // the verdict would depend on the verifying machine
  const now = new Date(evaluated_at);
  const ownForm = !Number.isNaN(now.getTime()) && now.toISOString() === evaluated_at;
  if (!ownForm && (Number.isNaN(now.getTime()) || !dateTimeSchema.safeParse(evaluated_at).success)) {
    mismatches.push(`evaluated_at ${evaluated_at} is not an RFC 3339 date-time`);
    return;
  }
  if (now.toISOString() !== evaluated_at) {
    warnings.push(`evaluated_at ${evaluated_at} is not in the engine's own form ${now.toISOString()}`);
  }
  if (engine_version !== ENGINE_VERSION) {
    // Another release's rules may decide otherwise: re-running this one's would either pass a decision it never
    // checked or call a genuine one forged. The digests above do not depend on the engine, so they were checked.
    mismatches.push(
      `engine_version is ${JSON.stringify(ev.engine_version)}; this is engine ${ENGINE_VERSION}, which re-runs only its own rules: verify the decision and reasons with release ${engine_version}`,
    );
    return;
  }

  let again: ReturnType<typeof evaluate>;
  try {
    again = evaluate({ facts: ev.facts as Facts, policy, now, engineVersion: engine_version });
  } catch (e) {
    // a time a Date holds but whose validity window (+24 h) it cannot, such as +275760-09-13: reported, not thrown
    mismatches.push(`the rules cannot be re-run at evaluated_at ${evaluated_at}: ${(e as Error).message}`);
    return;
  }
  if (ev.server_name !== again.server_name) {
    mismatches.push(`server_name is ${String(ev.server_name)}, but the facts are of ${again.server_name}`);
  }
  if (ev.decision !== again.decision) {
    mismatches.push(`decision is ${String(ev.decision)}, recomputed ${again.decision}`);
  }
  // an RFC 3339 date-time first: Date.parse also reads "Sat Nov 28 2026 15:00:08.344 GMT (renewed to 2099)"
  // and, with no offset, local time, which would make the answer depend on the verifying machine's time zone
  if (!dateTimeSchema.safeParse(ev.valid_until).success || !sameInstant(ev.valid_until as string, again.valid_until)) {
    mismatches.push(`valid_until is ${String(ev.valid_until)}, recomputed ${again.valid_until}`);
  }
  compareReasons(ev.reasons, again.reasons, mismatches);
  if (ev.meaning !== undefined && ev.meaning !== again.meaning) {
    mismatches.push("meaning differs from the fixed text of the decision");
  }
  if (ev.limitations !== undefined && safeCanonical(ev.limitations) !== canonicalJson(again.limitations)) {
    mismatches.push("limitations differ from the recomputed limitations");
  }
}

/**
 * Whether an RFC 3339 date-time names the same instant as the engine's own form. Date.parse keeps milliseconds and
 * drops the digits past them, so "…37.0619Z" read as the engine's "…37.061Z": a later validity passed as recomputed.
 */
function sameInstant(stated: string, own: string): boolean {
  return Date.parse(stated) === Date.parse(own) && !/\.\d{3}0*[1-9]/.test(stated);
}

function safeCanonical(v: unknown): string | null {
  try {
    return canonicalJson(v);
  } catch {
    return null;
  }
}

function compareReasons(stated: unknown, recomputed: readonly unknown[], mismatches: string[]): void {
  if (!Array.isArray(stated)) {
    mismatches.push("reasons is not an array");
    return;
  }
  if (stated.length !== recomputed.length) {
    mismatches.push(`there are ${stated.length} reasons, recomputed ${recomputed.length}`);
  }
  const n = Math.min(stated.length, recomputed.length);
  for (let i = 0; i < n; i++) {
    if (safeCanonical(stated[i]) !== canonicalJson(recomputed[i])) {
      const s = stated[i] as { code?: unknown; result?: unknown };
      const r = recomputed[i] as { code: string; result: string };
      if (s?.code === r.code && s?.result === r.result) {
        // Same rule and outcome: name the member that differs, so a reader can tell an edited summary
        // from a moved observation time without diffing the canonical JSON by hand.
        const d = firstDifference(stated[i], recomputed[i], "");
        mismatches.push(`reason ${i + 1} (${r.code}/${r.result}) differs at ${d.path || "the reason itself"}: ${d.stated}, recomputed ${d.recomputed}`);
      } else {
        mismatches.push(`reason ${i + 1} is ${String(s?.code)}/${String(s?.result)}, recomputed ${r.code}/${r.result}`);
      }
    }
  }
}

function show(v: unknown): string {
  if (v === undefined) return "absent";
  return safeCanonical(v) ?? String(v);
}

/**
 * Both values as a mismatch shows them, at most 120 characters each. Two long texts that begin alike are shown
 * from shortly before where they part: cut at the start, an edit near the end of a long summary read as the
 * same text twice.
 */
function showPair(a: unknown, b: unknown): { stated: string; recomputed: string } {
  const [sa, sb] = [show(a), show(b)];
  let same = 0;
  while (same < sa.length && same < sb.length && sa[same] === sb[same]) same++;
  const from = same > 80 ? same - 40 : 0;
  const clip = (text: string) => {
    const shown = from ? `...${text.slice(from)}` : text;
    return shown.length > 120 ? `${shown.slice(0, 117)}...` : shown;
  };
  return { stated: clip(sa), recomputed: clip(sb) };
}

/** The first path (in canonical key order) where two JSON values differ, with both values at it. */
function firstDifference(a: unknown, b: unknown, path: string): { path: string; stated: string; recomputed: string } {
  const bothObjects = a !== null && b !== null && typeof a === "object" && typeof b === "object";
  if (bothObjects && Array.isArray(a) === Array.isArray(b)) {
    if (Array.isArray(a) && Array.isArray(b)) {
      for (let i = 0; i < Math.max(a.length, b.length); i++) {
        if (safeCanonical(a[i]) !== safeCanonical(b[i])) return firstDifference(a[i], b[i], `${path}[${i}]`);
      }
    } else {
      const ao = a as Record<string, unknown>;
      const bo = b as Record<string, unknown>;
      for (const k of [...new Set([...Object.keys(ao), ...Object.keys(bo)])].sort()) {
        if (safeCanonical(ao[k]) !== safeCanonical(bo[k])) return firstDifference(ao[k], bo[k], path ? `${path}.${k}` : k);
      }
    }
  }
  return { path, ...showPair(a, b) };
}
