import type { AccountRow } from "@/lib/db/schema";
import type { Queryable } from "@/lib/db/client";
import { refillWalletIfNewMonth, type Caller } from "@/lib/quota";

/**
 * The caller a signed-in page acts as: the account itself, without an API key (the browser never holds
 * one). Services see the same account and tier as with one of its keys, and credits are spent from the
 * same wallet; `ip` only matters to anonymous callers.
 */
export function accountCaller(account: AccountRow): Caller & { accountId: string } {
  return { tier: account.tier === "pro" ? "pro" : "registered", accountId: account.id, keyId: null, ip: "session" };
}

/**
 * The account as the caller of a page action that pays, its wallet given this month's grant first when a new
 * UTC month began. A key's admission (admitCaller) does that refill; a session never goes through it, so
 * without this the page would charge last month's leftovers (or answer 402 on a spent one).
 */
export async function payingAccountCaller(db: Queryable, account: AccountRow, now = new Date()): Promise<Caller & { accountId: string }> {
  const caller = accountCaller(account);
  await refillWalletIfNewMonth(db, account.id, caller.tier, now);
  return caller;
}
