import { ApiError } from "@/lib/api/errors";
import { getDb, type Queryable } from "@/lib/db/client";
import { readWallet, requireKey, type Caller } from "@/lib/quota";
import { CREDIT_COSTS } from "@/lib/config";

export interface CreditsResult {
  ok: true;
  tier: "registered" | "pro";
  /** Credits left: what is left of this month's grant plus purchased credits. */
  remaining: number;
  /** This month's grant (refilled on the first call of each UTC month; unused grant does not carry over). */
  grant: number;
  grant_remaining: number;
  /** Purchased credits left; they never expire and are spent after the grant. */
  purchased: number;
  period_start: string;
  period_end: string;
  costs: typeof CREDIT_COSTS;
}

/** The wallet of the caller's account (GET /v1/credits, MCP catalog_credits); spends nothing. */
export async function getCredits(caller: Caller, opts: { db?: Queryable; now?: Date } = {}): Promise<CreditsResult> {
  requireKey(caller);
  const db = opts.db ?? (await getDb());
  const wallet = await readWallet(db, caller.accountId, caller.tier, opts.now ?? new Date());
  if (!wallet) throw new ApiError("not_found", "this account has no credit wallet");
  return {
    ok: true,
    tier: wallet.tier,
    remaining: wallet.remaining,
    grant: wallet.grant,
    grant_remaining: wallet.grantRemaining,
    purchased: wallet.purchased,
    period_start: wallet.periodStart.toISOString(),
    period_end: wallet.periodEnd.toISOString(),
    costs: CREDIT_COSTS,
  };
}
