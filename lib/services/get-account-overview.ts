import { getDb } from "@/lib/db/client";
import type { AccountRow } from "@/lib/db/schema";
import { listApiKeys, type ApiKeySummary } from "@/lib/accounts/list-api-keys";
import { readWallet, type WalletView } from "@/lib/quota";

export interface AccountOverview {
  email: string;
  tier: "registered" | "pro";
  wallet: WalletView | null;
  keys: ApiKeySummary[];
}

/** What the account page shows: tier, wallet and keys (prefixes only, never a key). */
export async function getAccountOverview(account: AccountRow, now = new Date()): Promise<AccountOverview> {
  const db = await getDb();
  const tier = account.tier === "pro" ? "pro" : "registered";
  const [wallet, keys] = await Promise.all([readWallet(db, account.id, tier, now), listApiKeys(account.id, { db })]);
  return { email: account.email, tier, wallet, keys };
}
