import { getDb, type Queryable } from "@/lib/db/client";
import { log } from "@/lib/log";
import type { Caller, QuotaState } from "./caller";
import { anonymousAllowanceBucket, dailyWindow } from "./check-burst";
import { runStatement } from "./run-statement";
import { startOfUtcDay } from "./utc";
import { errorMessage } from "@/lib/db/query-error";

/**
 * What one charge took, for undoing it when its call then fails (ChargeResult.receipt): the call's claim row and
 * its credits, or the anonymous allowance it used. Only a charge that took something has one (not a repeat), and
 * only one committed on its own: a charge in the caller's transaction rolls back with it, and one paid together
 * with a write alongside (the preflight's evaluation record) is what that record's existence answers for.
 */
export interface ChargeReceipt {
  subject: string;
  /** The UTC day (`YYYY-MM-DD`) the charge was counted on, which may be before the failure's. */
  day: string;
  cost: number;
  /** The keyless allowance an anonymous charge used (`lookups`, `audits`, …). */
  allowance: string;
  allowanceLimit: number;
}

/**
 * Gives back what the charges of a call that failed took (a 500 after the charge: the database failed while the
 * answer was computed), so a caller is never charged, nor an anonymous address counted, for a call that brought no
 * answer: its retry the same day pays as a first call would have. Each undo is one statement that deletes the
 * claim row and returns what it held, so it happens once: a claim already gone (rolled back, pruned) gives nothing
 * back. The credits go back to the grant first, up to the month's grant, then to purchased credits, the reverse of
 * the spend's order. A failed undo is logged, never thrown: the caller's answer is the error that ended the call.
 * `state` is brought up to date for the headers of the error answer.
 */
export async function undoCharges(caller: Caller, receipts: ChargeReceipt[], state: QuotaState, opts: { db?: Queryable; now?: Date } = {}): Promise<void> {
  if (receipts.length === 0) return;
  try {
    const db = opts.db ?? (await getDb());
    const now = opts.now ?? new Date();
    for (const r of receipts.splice(0)) {
      if (caller.accountId) {
        const [row] = await runStatement<{ remaining: number | null }>(db, "undo_charge", UNDO_CHARGE_SQL, [caller.accountId, r.day, r.subject, now.toISOString()]);
        if (row?.remaining != null) state.creditsRemaining = Number(row.remaining);
      } else {
        const bucket = anonymousAllowanceBucket(r.allowance, caller.ip);
        const dayStart = startOfUtcDay(new Date(`${r.day}T00:00:00.000Z`));
        const [row] = await runStatement<{ used: number | null }>(db, "undo_anonymous", UNDO_ANONYMOUS_SQL, [caller.ip, r.allowance, r.day, r.subject, bucket, dayStart.toISOString()]);
        // the headers describe today's window: a charge counted yesterday changes nothing a header says
        if (row?.used != null && dayStart.getTime() === startOfUtcDay(now).getTime()) {
          const w = dailyWindow(Number(row.used), now, r.allowanceLimit);
          if (r.allowance === "lookups") state.daily = w;
          else state.allowance = { name: r.allowance, ...w };
        }
      }
    }
  } catch (err) {
    log.warn("the charge of a failed call could not be undone", { error: errorMessage(err) });
  }
}

// $1 account, $2 UTC day, $3 subject, $4 now
const UNDO_CHARGE_SQL = `
  with gone as (
    delete from credit_charges where account_id = $1 and utc_day = $2::date and subject = $3
    returning cost
  )
  update credit_wallets w
  set grant_remaining = least(w.grant_amount, w.grant_remaining + gone.cost),
      purchased_remaining = w.purchased_remaining + greatest(gone.cost - greatest(w.grant_amount - w.grant_remaining, 0), 0),
      updated_at = $4::timestamptz
  from gone
  where w.account_id = $1
  returning (w.grant_remaining + w.purchased_remaining)::int as remaining`;

// $1 ip, $2 allowance, $3 UTC day, $4 subject, $5 counter bucket, $6 UTC day start
const UNDO_ANONYMOUS_SQL = `
  with gone as (
    delete from anonymous_lookups where ip = $1 and allowance = $2 and utc_day = $3::date and subject = $4
    returning 1
  )
  update quota_counters set count = count - 1
  where bucket = $5 and window_start = $6::timestamptz and count > 0 and exists (select 1 from gone)
  returning count as used`;
