import { and, eq, lt } from "drizzle-orm";
import { MONTHLY_CREDIT_GRANT, type Tier } from "@/lib/config";
import type { Queryable } from "@/lib/db/client";
import { creditWallets, type CreditWalletRow } from "@/lib/db/schema";
import { startOfNextUtcMonth, utcMonthStart } from "./utc";

export interface WalletView {
  tier: Exclude<Tier, "free">;
  /** The monthly grant of this period. */
  grant: number;
  grantRemaining: number;
  purchased: number;
  remaining: number;
  periodStart: Date;
  periodEnd: Date;
}

export function monthlyGrant(tier: string): number {
  return MONTHLY_CREDIT_GRANT[tier as keyof typeof MONTHLY_CREDIT_GRANT] ?? 0;
}

/**
 * Gives the month's grant if the wallet still holds an earlier month's. The
 * WHERE makes it happen once: concurrent first calls of a month wait on the row
 * lock, re-check period_start and find nothing to do. Unused grant does not
 * carry over; purchased credits are untouched.
 */
export async function refillWalletIfNewMonth(
  db: Queryable,
  accountId: string,
  tier: string,
  now: Date,
): Promise<CreditWalletRow | null> {
  const month = utcMonthStart(now);
  const grant = monthlyGrant(tier);
  const rows = await db
    .update(creditWallets)
    .set({ periodStart: month, grantAmount: grant, grantRemaining: grant, updatedAt: now })
    .where(and(eq(creditWallets.accountId, accountId), lt(creditWallets.periodStart, month)))
    .returning();
  return rows[0] ?? null;
}

export function walletView(row: CreditWalletRow, tier: string): WalletView {
  const periodStart = new Date(`${row.periodStart}T00:00:00.000Z`);
  return {
    tier: (tier === "pro" ? "pro" : "registered") as WalletView["tier"],
    grant: row.grantAmount,
    grantRemaining: row.grantRemaining,
    purchased: row.purchasedRemaining,
    remaining: row.grantRemaining + row.purchasedRemaining,
    periodStart,
    periodEnd: startOfNextUtcMonth(periodStart),
  };
}

/** The wallet as of `now`, refilled first when a new UTC month began. */
export async function readWallet(db: Queryable, accountId: string, tier: string, now: Date): Promise<WalletView | null> {
  const refilled = await refillWalletIfNewMonth(db, accountId, tier, now);
  const row = refilled ?? (await db.select().from(creditWallets).where(eq(creditWallets.accountId, accountId)))[0];
  return row ? walletView(row, tier) : null;
}
