import type { AccountRow } from "@/lib/db/schema";
import type { Caller } from "@/lib/quota";

/**
 * The caller a signed-in page acts as: the account itself, without an API key (the browser never holds
 * one). Services see the same account and tier as with one of its keys, and credits are spent from the
 * same wallet; `ip` only matters to anonymous callers.
 */
export function accountCaller(account: AccountRow): Caller & { accountId: string } {
  return { tier: account.tier === "pro" ? "pro" : "registered", accountId: account.id, keyId: null, ip: "session" };
}
