import { and, eq, isNull, lt, or } from "drizzle-orm";
import { ApiError } from "@/lib/api/errors";
import { clientIp } from "@/lib/api/client-ip";
import { API_KEY_LAST_USED_RESOLUTION_SECONDS } from "@/lib/config";
import { getDb, type Queryable } from "@/lib/db/client";
import { accounts, apiKeys, creditWallets } from "@/lib/db/schema";
import { hashApiKey, isWellFormedApiKey, sameDigest } from "@/lib/accounts/api-key-format";
import type { Caller, QuotaState } from "./caller";
import { refillWalletIfNewMonth } from "./wallet";
import { utcMonthStart } from "./utc";

export const API_KEY_HEADER = "x-api-key";

export interface CallerInput {
  /** The x-api-key value as sent; null/undefined/"" when absent. */
  apiKey?: string | null;
  ip: string;
}

export interface ResolvedCaller {
  caller: Caller;
  state: QuotaState;
}

// One message for every bad key, so the answer does not tell a revoked key from a made-up one.
const INVALID_KEY = "the API key in x-api-key is not valid (unknown, malformed or revoked); create one on the account page";

/** Reads the key and client IP from a request (the REST and MCP adapters). */
export function callerInputFrom(req: Request): CallerInput {
  return { apiKey: req.headers.get(API_KEY_HEADER), ip: clientIp(req) };
}

/**
 * Who is calling. No key → the anonymous `free` tier. A key that is malformed,
 * unknown or revoked → 401, also where a key is optional: a caller who meant to
 * use a key must not be silently downgraded to anonymous.
 * The key is hashed and looked up by hash (unique index); the stored hash is then
 * compared in constant time. The key itself is never logged or echoed.
 */
export async function resolveCaller(
  input: Request | CallerInput,
  opts: { db?: Queryable; now?: Date } = {},
): Promise<ResolvedCaller> {
  const { apiKey, ip } = input instanceof Request ? callerInputFrom(input) : input;
  const key = apiKey?.trim();
  if (!key) return { caller: { tier: "free", accountId: null, keyId: null, ip }, state: {} };
  if (!isWellFormedApiKey(key)) throw new ApiError("unauthorized", INVALID_KEY);

  const db = opts.db ?? (await getDb());
  const now = opts.now ?? new Date();
  const hash = hashApiKey(key);
  const rows = await db
    .select({
      keyId: apiKeys.id,
      hash: apiKeys.hash,
      revokedAt: apiKeys.revokedAt,
      lastUsedAt: apiKeys.lastUsedAt,
      accountId: accounts.id,
      tier: accounts.tier,
      periodStart: creditWallets.periodStart,
      grantRemaining: creditWallets.grantRemaining,
      purchasedRemaining: creditWallets.purchasedRemaining,
    })
    .from(apiKeys)
    .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
    .leftJoin(creditWallets, eq(creditWallets.accountId, apiKeys.accountId))
    .where(eq(apiKeys.hash, hash))
    .limit(1);
  const row = rows[0];
  if (!row || !sameDigest(row.hash, hash) || row.revokedAt) throw new ApiError("unauthorized", INVALID_KEY);

  const tier = row.tier === "pro" ? "pro" : "registered";
  let creditsRemaining = (row.grantRemaining ?? 0) + (row.purchasedRemaining ?? 0);
  if (row.periodStart && row.periodStart < utcMonthStart(now)) {
    const refilled = await refillWalletIfNewMonth(db, row.accountId, tier, now);
    if (refilled) creditsRemaining = refilled.grantRemaining + refilled.purchasedRemaining;
  }
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > API_KEY_LAST_USED_RESOLUTION_SECONDS * 1000) {
    await touchKey(db, row.keyId, now);
  }
  return {
    caller: { tier, accountId: row.accountId, keyId: row.keyId, ip },
    state: { creditsRemaining },
  };
}

async function touchKey(db: Queryable, keyId: string, now: Date): Promise<void> {
  const threshold = new Date(now.getTime() - API_KEY_LAST_USED_RESOLUTION_SECONDS * 1000);
  await db
    .update(apiKeys)
    .set({ lastUsedAt: now })
    .where(and(eq(apiKeys.id, keyId), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, threshold))));
}

/** For key-only capabilities: 401 unless the caller used a valid key. */
export function requireKey(caller: Caller): asserts caller is Caller & { accountId: string; keyId: string } {
  if (!caller.accountId || !caller.keyId) {
    throw new ApiError("unauthorized", `this call needs an API key in the ${API_KEY_HEADER} header; create one on the account page`);
  }
}
