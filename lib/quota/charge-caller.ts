import { ApiError } from "@/lib/api/errors";
import { ANONYMOUS_DAILY_LOOKUPS } from "@/lib/config";
import { getDb, type Db, type Queryable } from "@/lib/db/client";
import { anonymousLookups, creditCharges } from "@/lib/db/schema";
import type { Caller, QuotaState } from "./caller";
import { anonymousAllowanceBucket, dailyWindow } from "./check-burst";
import { incrementCounterBelow } from "./counters";
import { secondsUntil, startOfNextUtcDay, startOfUtcDay, utcDay } from "./utc";
import { spendCredits } from "./wallet";

export interface ChargeOptions {
  db?: Db;
  now?: Date;
  /** Filled in place with the wallet / allowance after the charge. */
  state?: QuotaState;
  /** Keyless allowance to count anonymous subjects in (default: the 10 daily lookups). */
  allowance?: { name: string; limit: number };
}

export interface ChargeResult {
  /** Credits spent by this call (0 for a repeat or an anonymous caller). */
  charged: number;
  /** The same caller already paid for (or used) this subject today. */
  repeat: boolean;
  state: QuotaState;
}

/**
 * Charges a caller for one subject on this UTC day ("search:<q>",
 * "preflight:builtin:baseline:<name>", …). Call it only after the input was
 * validated and the resource found, so rejected requests spend nothing.
 *
 * Keyed: one transaction inserts the (account, day, subject) row and spends the
 * credits with a conditional UPDATE; a row already there means a repeat (free).
 * Two identical requests at once: the second insert waits for the first
 * transaction and then finds its row, so it is charged once (if the first
 * rolls back for want of credits, the second tries to pay itself). An empty
 * wallet → 402 payment_required, and the transaction rolls the row back.
 *
 * Anonymous: the same shape against the IP's daily allowance: a new subject
 * takes one of the 10 daily lookups, a repeat is free, and past the limit → 429
 * with retry_after (seconds) and reset_at (the next UTC midnight).
 */
export async function chargeCaller(
  caller: Caller,
  subject: string,
  cost: number,
  opts: ChargeOptions = {},
): Promise<ChargeResult> {
  const state = opts.state ?? {};
  if (!Number.isInteger(cost) || cost < 0) throw new Error(`charge cost must be a non-negative integer (got ${cost})`);
  if (!subject) throw new Error("charge subject must not be empty");
  const db = opts.db ?? (await getDb());
  const now = opts.now ?? new Date();
  const day = utcDay(now);

  if (caller.accountId) {
    if (cost === 0) return { charged: 0, repeat: false, state };
    const accountId = caller.accountId;
    return db.transaction(async (tx) => {
      if (!(await claimSubject(tx, { accountId, day, subject, cost, keyId: caller.keyId }))) {
        return { charged: 0, repeat: true, state };
      }
      const wallet = await spendCredits(tx, accountId, cost, now);
      if (!wallet) {
        throw new ApiError(
          "payment_required",
          `the credit wallet cannot pay for this call (${cost} credit${cost === 1 ? "" : "s"}); it refills on the first day of the next UTC month`,
        );
      }
      state.creditsRemaining = wallet.grantRemaining + wallet.purchasedRemaining;
      return { charged: cost, repeat: false, state };
    });
  }

  const allowance = opts.allowance ?? { name: "lookups", limit: ANONYMOUS_DAILY_LOOKUPS };
  return db.transaction(async (tx) => {
    const fresh = await tx
      .insert(anonymousLookups)
      .values({ ip: caller.ip, allowance: allowance.name, utcDay: day, subject })
      .onConflictDoNothing()
      .returning({ subject: anonymousLookups.subject });
    if (!fresh.length) return { charged: 0, repeat: true, state };
    const used = await incrementCounterBelow(
      tx,
      anonymousAllowanceBucket(allowance.name, caller.ip),
      startOfUtcDay(now),
      allowance.limit,
    );
    if (used === null) {
      const resetAt = startOfNextUtcDay(now);
      if (allowance.name === "lookups") state.daily = dailyWindow(allowance.limit, now, allowance.limit);
      throw new ApiError(
        "rate_limited",
        `without an API key a client IP gets ${allowance.limit} distinct ${allowance.name} per UTC day; repeats are free, and a free account key lifts this`,
        { retryAfter: secondsUntil(resetAt, now), resetAt },
      );
    }
    if (allowance.name === "lookups") state.daily = dailyWindow(used, now, allowance.limit);
    return { charged: 0, repeat: false, state };
  });
}

async function claimSubject(
  tx: Queryable,
  row: { accountId: string; day: string; subject: string; cost: number; keyId: string | null },
): Promise<boolean> {
  const inserted = await tx
    .insert(creditCharges)
    .values({ accountId: row.accountId, utcDay: row.day, subject: row.subject, cost: row.cost, keyId: row.keyId })
    .onConflictDoNothing()
    .returning({ subject: creditCharges.subject });
  return inserted.length === 1;
}
