import type { Db } from "@/lib/db/client";
import { ApiError } from "@/lib/api/errors";
import { evaluate, getPolicy, toPreflightResult, type PreflightResultBody } from "@/lib/engine";
import { loadFactsCached } from "@/lib/facts/record-cache";
import { loadFacts } from "@/lib/facts/load-facts";
import { evaluationRecord } from "@/lib/evaluations/record-evaluation";
import { assertAffordable, type ChargeExtras } from "@/lib/quota";
import type { PreflightInput } from "@/lib/schemas/preflight";
import { log } from "@/lib/log";
import { beginRefresh } from "./refresh-liveness";
import { errorMessage } from "@/lib/db/query-error";

export const PREFLIGHT_COST = 5;

/** What the preflight service needs to know about its caller (a subset of the quota caller). */
export interface PreflightCaller {
  accountId: string | null;
  keyId: string | null;
}

export interface ServiceContext<C extends PreflightCaller = PreflightCaller> {
  caller: C;
  /**
   * Spends credits (or an anonymous lookup) for `subject`; a repeat the same UTC day is free. A keyed
   * call's `alongside` write happens in the charge's own statement (both or neither).
   */
  charge(subject: string, cost: number, extras?: ChargeExtras): Promise<unknown>;
  /**
   * Finishes the caller's admission (401, 429) when the adapter deferred it to the charge (the REST wrapper's
   * one-statement path): called before a refresh, whose probe and limits must not be spent on a key that is
   * refused. Adapters that admit up front leave it out.
   */
  admit?: () => Promise<void>;
  now?: () => Date;
}

/**
 * One decision for one exact server under one policy (contract: POST /v1/preflight),
 * checked in the order of the contract's rules: input (the adapter's schema), a key
 * for refresh (401), existence (404), a wallet that cannot pay before a refresh (402), a refresh already
 * running (409) or over its limits (429), then the evaluation. A keyed call's evaluation is recorded in the
 * same statement that pays for it: if it cannot be recorded the answer is 503 and
 * nothing is spent; if it cannot be paid for (402) nothing is recorded.
 */
export async function preflight(db: Db, input: PreflightInput, ctx: ServiceContext, kind: "preflight" | "stamp" = "preflight"): Promise<PreflightResultBody> {
  const now = ctx.now ?? (() => new Date());
  const policy = getPolicy(input.policy_id ?? "builtin:baseline")!;
  const { accountId, keyId } = ctx.caller;
  if (input.refresh === "if_stale" && !accountId) {
    throw new ApiError("unauthorized", "refresh=if_stale needs an account API key in x-api-key; anonymous calls must use refresh=never");
  }
  let facts = await loadFactsCached(db, input.server_name);
  if (!facts) {
    throw new ApiError("not_found", `no server named ${JSON.stringify(input.server_name)} in the catalog (names are exact and case-sensitive)`);
  }
  const subject = `${kind}:${policy.id}:${input.server_name}`;
  let probed = false;
  if (input.refresh === "if_stale" && accountId) {
    await ctx.admit?.();
    // a caller who cannot pay gets its 402 before the probe, the cooldown and the refresh quota are spent
    await assertAffordable(db, accountId, subject, PREFLIGHT_COST, now());
    // what is stale is judged on the observations stored now: this process's kept copy may be a minute behind
    // another process's harvest or refresh, and judged on it the call would probe again for nothing, or be
    // refused 429 under the very cooldown that fresh refresh set
    facts = (await loadFacts(db, input.server_name)) ?? facts;
    const pending = await beginRefresh(db, facts, { accountId, now: now() });
    if (pending) {
      probed = true;
      await pending.run();
      facts = (await loadFactsCached(db, input.server_name))!;
    }
  }

  const evaluation = evaluate({ facts, policy, now: now() });
  if (!accountId) {
    await ctx.charge(subject, PREFLIGHT_COST);
    return toPreflightResult(evaluation, null);
  }
  const record = evaluationRecord(evaluation, { accountId, keyId });
  try {
    await ctx.charge(subject, PREFLIGHT_COST, { alongside: record.write });
  } catch (err) {
    if (err instanceof ApiError) throw err; // 402: the statement that refused to pay wrote no record either
    log.error("evaluation could not be recorded", { server: input.server_name, error: errorMessage(err) });
    // a probe that ran is not undone: its observation is kept, and it counted against the refresh limits
    const probe = probed
      ? "; the liveness probe did run: its observation is stored and it counts against the refresh limits, so retry with refresh=never to be evaluated on it"
      : "; retry shortly";
    throw new ApiError("audit_unavailable", `the evaluation could not be recorded, so no result is returned and no credits were spent${probe}`);
  }
  return toPreflightResult(evaluation, record.id);
}
