import { createHash } from "node:crypto";
import {
  AUDIT_KEYLESS_CONFIGS_PER_DAY,
  AUDIT_MAX_ENTRIES_KEYED,
  AUDIT_MAX_ENTRIES_KEYLESS,
  CREDIT_COSTS,
} from "@/lib/config";
import { auditExitCode, countVerdicts, type EntryResolution, type Verdict } from "@/lib/config-audit";
import type { Queryable } from "@/lib/db/client";
import { decide, getPolicy, runRules, type Facts, type PolicyId, type PreflightPolicy } from "@/lib/engine";
import { loadFactsMany } from "@/lib/facts/load-facts";
import { unevaluatedPin } from "@/lib/config-audit/pinned-version";
import type { AuditEntry, AuditReason, AuditResult } from "@/lib/schemas/config-audit";
import { checkEntryLimit, parseConfigOrThrow, resolutionFields, resolveParsedConfig, type ConfigInput } from "./resolve-config";

export interface AuditConfigInput extends ConfigInput {
  policy_id: PolicyId;
  strict: boolean;
}

export interface AuditConfigContext {
  caller: { accountId: string | null };
  /**
   * Pays for the config (subject, cost, keyless allowance): 1 credit per distinct config per UTC day with a
   * key; keyless, one distinct config per IP per UTC day. A repeat the same day is free.
   */
  charge(subject: string, cost: number, options: { allowance: { name: string; limit: number } }): Promise<unknown>;
  now?: () => Date;
}

/** The keyless allowance the audit counts anonymous configs in (separate from the 10 daily lookups). */
export const AUDIT_ALLOWANCE = { name: "audits", limit: AUDIT_KEYLESS_CONFIGS_PER_DAY } as const;

/** The charge subject of a config: the SHA-256 of the body exactly as sent. */
export function auditSubject(text: string): string {
  return `audit:${createHash("sha256").update(text).digest("hex")}`;
}

/**
 * POST /v1/audit: a verdict for every server entry of a whole MCP config file. In order: the file is read
 * (400 with line and column), the entry limit checked (413: 25 keyless, 100 with a key), the config paid for
 * (402/429) while the entries are resolved against the catalog, then every resolved server evaluated once under
 * the policy with the pure engine (one metered call, not one preflight per entry; nothing is recorded).
 * Unresolved entries are UNKNOWN with the reason. Exit code: 0 all PASS, 1 any BLOCK, 2 (strict) any REVIEW
 * or UNKNOWN.
 */
export async function auditConfig(db: Queryable, input: AuditConfigInput, ctx: AuditConfigContext): Promise<AuditResult> {
  const now = (ctx.now ?? (() => new Date()))();
  const policy = getPolicy(input.policy_id)!;
  const parsed = parseConfigOrThrow(input);
  if (ctx.caller.accountId) {
    checkEntryLimit(parsed, AUDIT_MAX_ENTRIES_KEYED, `one audit takes at most ${AUDIT_MAX_ENTRIES_KEYED}; split the file`);
  } else {
    checkEntryLimit(
      parsed,
      AUDIT_MAX_ENTRIES_KEYLESS,
      `without an API key one audit takes at most ${AUDIT_MAX_ENTRIES_KEYLESS} (with a key, ${AUDIT_MAX_ENTRIES_KEYED})`,
    );
  }
  // The catalog look-up (unmetered on its own, as POST /v1/resolve) runs while the charge commits; nothing is
  // evaluated unless the charge succeeds.
  // Both are awaited before either's failure is thrown: a charge still in flight when the look-up failed would
  // otherwise be paid after the adapter gave back what the failed call had been charged (lib/quota/undo-charge.ts).
  const [paid, resolved] = await Promise.allSettled([
    ctx.charge(auditSubject(input.text), CREDIT_COSTS.config_audit, { allowance: AUDIT_ALLOWANCE }),
    resolveParsedConfig(db, parsed),
  ]);
  if (paid.status === "rejected") throw paid.reason;
  if (resolved.status === "rejected") throw resolved.reason;
  const resolutions = resolved.value;
  // an ambiguous entry's other candidates are evaluated too: its PASS must hold whichever of them it runs
  const names = [...new Set(resolutions.flatMap((r) => (r.serverName ? [r.serverName, ...(r.ambiguous ? r.alternatives : [])] : [])))];
  const facts = await loadFactsMany(db, names);
  const verdicts = new Map<string, { verdict: Verdict; reasons: AuditReason[] }>();
  for (const name of names) {
    const f = facts.get(name);
    if (f) verdicts.set(name, verdictOf(f, policy, now));
  }

  const entries: AuditEntry[] = resolutions.map((r) => auditEntry(r, r.serverName ? verdictOfEntry(r, verdicts, facts) : undefined));
  const all = entries.map((e) => e.verdict);
  return {
    ok: true,
    exit_code: auditExitCode(all, input.strict),
    strict: input.strict,
    format: parsed.format,
    layout: parsed.layout,
    map_keys: parsed.mapKeys,
    policy: { id: policy.id, revision: 1 },
    evaluated_at: now.toISOString(),
    entries,
    counts: countVerdicts(all),
  };
}

/**
 * The decision of one server's facts under the policy (the engine's own rules and decide()), with the
 * reasons that made it: every block and review, and every required fact that is unknown.
 */
export function verdictOf(facts: Facts, policy: PreflightPolicy, now: Date): { verdict: Verdict; reasons: AuditReason[] } {
  const outcomes = runRules(facts, policy, now);
  const verdict = decide(outcomes, policy);
  const reasons: AuditReason[] = outcomes
    .filter(({ reason, required }) => reason.result === "block" || reason.result === "review" || (reason.result === "unknown" && required))
    .map(({ reason }) => ({ code: reason.code, result: reason.result as AuditReason["result"], summary: reason.summary }))
    // block reasons first: the first reason is the one a text line shows
    .sort((a, b) => rank(a.result) - rank(b.result));
  if (verdict === "PASS") {
    reasons.push({ code: "policy_pass", result: "pass", summary: `every rule of ${policy.name} passes on the catalog's evidence` });
  }
  return { verdict, reasons };
}

/**
 * The verdict of a resolved entry: its server's. When the match is a guess among several listed servers
 * (`ambiguous`), a PASS stands only if every candidate passes; otherwise a person must say which server the
 * entry runs (REVIEW), since a PASS is never a guess. So is a PASS whose identity is itself a guess (low
 * confidence: a python -m module name read as a distribution), and a PASS for a package entry that pins another
 * exact version than the listed one (lib/config-audit/pinned-version.ts) or that installs other packages beside
 * it (`extras`); a REVIEW or BLOCK stands as it is.
 */
function verdictOfEntry(r: EntryResolution, verdicts: Map<string, { verdict: Verdict; reasons: AuditReason[] }>, facts: Map<string, Facts>) {
  const own = verdicts.get(r.serverName!);
  if (!own || own.verdict !== "PASS") return own;
  const doubt = passDoubt(r, verdicts, facts);
  return doubt ? { verdict: "REVIEW" as Verdict, reasons: [{ ...doubt, result: "review" as const }] } : own;
}

/** Why a resolved entry's PASS cannot stand as its own (the first doubt, in the order of the rules above), or null. */
function passDoubt(
  r: EntryResolution,
  verdicts: Map<string, { verdict: Verdict; reasons: AuditReason[] }>,
  facts: Map<string, Facts>,
): { code: string; summary: string } | null {
  const name = r.serverName!;
  if (r.identity.confidence === "low") {
    // the identity itself is a guess (a python -m module read as the PyPI distribution of that name): the server's
    // PASS holds only if the entry runs that server, which the file does not show
    return {
      code: "guessed_match",
      summary: `${name} would PASS, but the entry is tied to it by a guess (${r.identifier} read from what the entry runs); a person must check that it runs that package`,
    };
  }
  const others = r.ambiguous ? r.alternatives.map((n) => [n, verdicts.get(n)?.verdict ?? "UNKNOWN"] as const) : [];
  if (others.some(([, v]) => v !== "PASS")) {
    const listed = [[name, "PASS"] as const, ...others].map(([n, v]) => `${n} ${v}`).join(", ");
    return {
      code: "ambiguous_match",
      summary: `${r.identifier} is listed by ${others.length + 1} servers (${listed}) and the entry's key names none of them; which one it runs decides, so a person must check`,
    };
  }
  // packages installed beside the server's run their code with it, and the catalog vouches for none of them
  const extras = r.identity.extras ?? [];
  if (extras.length) {
    return {
      code: "extra_packages",
      summary: `${name} would PASS, but the entry also installs ${extras.join(", ")}, which the catalog did not evaluate and whose code runs with the server's (install scripts, import hooks); a person must check ${extras.length === 1 ? "it" : "them"}`,
    };
  }
  // the decision rests on evidence about the listed version (its deprecation, the advisories affecting it): an
  // entry pinning another exact version runs one the catalog did not evaluate
  const pin = unevaluatedPin(r, facts.get(name));
  if (pin) {
    return {
      code: "version_not_evaluated",
      summary: `${name} would PASS, but the entry pins ${pin.identifier} ${pin.pinned} and the catalog's evidence (deprecation, advisories) is about the listed ${pin.listed}; a person must check ${pin.pinned}, or pin ${pin.listed}`,
    };
  }
  return null;
}

const rank = (r: AuditReason["result"]) => (r === "block" ? 0 : r === "review" ? 1 : r === "unknown" ? 2 : 3);

function auditEntry(r: EntryResolution, evaluated: { verdict: Verdict; reasons: AuditReason[] } | undefined): AuditEntry {
  const fields = resolutionFields(r);
  if (r.serverName && evaluated) return { ...fields, verdict: evaluated.verdict, reasons: evaluated.reasons };
  const unresolved = r.unresolved ?? { code: "not_in_catalog", summary: `${r.serverName ?? r.identifier ?? r.entry.key} is no longer listed in the catalog` };
  return {
    ...fields,
    server_name: r.serverName && evaluated ? r.serverName : null,
    resolved_by: r.serverName && evaluated ? r.resolvedBy : null,
    verdict: "UNKNOWN",
    reasons: [{ code: unresolved.code, result: "unknown", summary: unresolved.summary }],
  };
}
