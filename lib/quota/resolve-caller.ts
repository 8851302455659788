import { and, eq, isNull, lt, or } from "drizzle-orm";
import { ApiError } from "@/lib/api/errors";
import { clientIp } from "@/lib/api/client-ip";
import { allowanceAddress } from "./allowance-address";
import { API_KEY_LAST_USED_RESOLUTION_SECONDS, BURST_WINDOW_SECONDS } from "@/lib/config";
import { getDb, type Queryable } from "@/lib/db/client";
import { apiKeys } from "@/lib/db/schema";
import { ASYNC_COMMIT_COLUMN, ASYNC_COMMIT_CTE, runStatement } from "./run-statement";
import { hashApiKey, isWellFormedApiKey, sameDigest } from "@/lib/accounts/api-key-format";
import type { Caller, KeylessAllowance, QuotaState } from "./caller";
import { burstExceeded, burstLimit, burstWindow, checkBurst } from "./check-burst";
import { refillWalletIfNewMonth } from "./wallet";
import { utcMonthStart, windowStart } from "./utc";
import { knownKey, rememberKey } from "./known-keys";

export const API_KEY_HEADER = "x-api-key";

export interface CallerInput {
  /** The x-api-key value as sent; null/undefined/"" when absent. */
  apiKey?: string | null;
  /** An API key sent in Authorization, `Bearer catk_…` or otherwise (not read as a credential: the contract's is x-api-key). */
  keyInAuthorization?: boolean;
  /** The address anonymous allowances count against (lib/quota/allowance-address.ts). */
  ip: string;
}

export interface ResolvedCaller {
  caller: Caller;
  state: QuotaState;
}

export interface AdmitOptions {
  /** Count the request in the caller's burst window (429 past it). */
  metered?: boolean;
  /** 401 unless a valid key was sent. */
  keyRequired?: boolean;
  /**
   * A call without auth in the contract (it neither needs nor meters a key): the key is not read, so a stale
   * one a client sends with every request does not cost it the public routes.
   */
  keyless?: boolean;
  /** The keyless allowance the route spends, if not the daily lookups: the window an anonymous caller's headers describe. */
  allowance?: KeylessAllowance;
  db?: Queryable;
  now?: Date;
  /** Filled in place, also when a 429 is thrown, so the headers can go out with it. */
  state?: QuotaState;
}

// One message for every bad key, so the answer does not tell a revoked key from a made-up one.
export const INVALID_KEY = "the API key in x-api-key is not valid (unknown, malformed or revoked); create one on the account page";
const MISSING_KEY = `this call needs an API key in the ${API_KEY_HEADER} header; create one on the account page`;
const KEY_IN_AUTHORIZATION = `send the API key in the ${API_KEY_HEADER} header, not in Authorization`;

// One of our keys in Authorization under any scheme or none (`Bearer catk_…`, `Token catk_…`, a bare `catk_…`):
// clients that take "an API key" put it there in any of these, and each was otherwise a silent anonymous call.
const KEY_IN_AUTHORIZATION_PATTERN = /^\s*(?:[\w-]+\s+)?catk_/i;

/** Reads the key and client IP from a request (the REST and MCP adapters) or a page's request headers. */
export function callerInputFrom(req: { headers: { get(name: string): string | null } }): CallerInput {
  return {
    apiKey: req.headers.get(API_KEY_HEADER),
    keyInAuthorization: KEY_IN_AUTHORIZATION_PATTERN.test(req.headers.get("authorization") ?? ""),
    ip: allowanceAddress(clientIp(req)),
  };
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
  return admitCaller(input, opts);
}

/**
 * The front door of every call, in the contract's order: resolve the key
 * (401), then on metered calls count the burst window (429). For a keyed
 * metered call both happen in ONE statement (key lookup joined with the burst
 * counter upsert), which keeps the quota path to two round trips per paid call.
 */
export async function admitCaller(input: Request | CallerInput, opts: AdmitOptions = {}): Promise<ResolvedCaller> {
  const { apiKey, keyInAuthorization, ip } = input instanceof Request ? callerInputFrom(input) : input;
  const state = opts.state ?? {};
  const key = opts.keyless ? undefined : apiKey?.trim();
  if (!key) {
    // a caller who meant to use a key (one of ours, in the header MCP clients often use) must not silently
    // become anonymous: no audit id, the keyless cap
    if (keyInAuthorization && !opts.keyless) throw new ApiError("unauthorized", KEY_IN_AUTHORIZATION);
    if (opts.keyRequired) throw new ApiError("unauthorized", MISSING_KEY);
    const caller: Caller = { tier: "free", accountId: null, keyId: null, ip };
    if (opts.metered) await checkBurst(caller, state, { db: opts.db, now: opts.now, allowance: opts.allowance });
    return { caller, state };
  }
  if (!isWellFormedApiKey(key)) throw new ApiError("unauthorized", INVALID_KEY);

  const db = opts.db ?? (await getDb());
  const now = opts.now ?? new Date();
  const hash = hashApiKey(key);
  const window = windowStart(now, BURST_WINDOW_SECONDS);
  const [row] = await runStatement<KeyRow>(db, "admit_key", ADMIT_KEY_SQL, [
    hash,
    opts.metered === true,
    window.toISOString(),
  ]);
  if (!row || !sameDigest(row.hash, hash) || row.revoked) throw new ApiError("unauthorized", INVALID_KEY);

  const tier = row.tier === "pro" ? "pro" : "registered";
  rememberKey(hash, { keyId: row.key_id, accountId: row.account_id, tier });
  const caller: Caller = { tier, accountId: row.account_id, keyId: row.key_id, ip };
  state.creditsRemaining = Number(row.credits);
  if (row.period_start && row.period_start < utcMonthStart(now)) {
    const refilled = await refillWalletIfNewMonth(db, row.account_id, tier, now);
    if (refilled) state.creditsRemaining = refilled.grantRemaining + refilled.purchasedRemaining;
  }
  const lastUsed = Number(row.last_used_ms);
  if (!lastUsed || now.getTime() - lastUsed > API_KEY_LAST_USED_RESOLUTION_SECONDS * 1000) {
    await touchKey(db, row.key_id, now);
  }
  if (opts.metered) {
    state.burst = burstWindow(caller, Number(row.burst_count), now);
    if (Number(row.burst_count) > burstLimit(caller)) throw burstExceeded(caller, state, now);
  }
  return { caller, state };
}

/** A keyed call admitted from the known-key cache, whose admission the paying statement does. */
export interface PendingAdmission {
  hash: string;
  /** For the full admission, where the call falls back to it (a refusal before paying, a new month, 402). */
  input: CallerInput;
}

/**
 * For a metered call with a key this process has admitted before: the caller as the known-key cache has
 * it, and the admission left to do. Whoever takes this must either pass `pending` to the call's charge
 * (lib/quota/charge-caller.ts `admission`) or, when the call ends without paying, run admitCaller, so
 * that a revoked key is still 401 and every request counts in its burst window. Null when the key is
 * absent, malformed or not known here: use admitCaller.
 */
export function admitLater(input: Request | CallerInput): { caller: Caller; pending: PendingAdmission } | null {
  const callerInput = input instanceof Request ? callerInputFrom(input) : input;
  const key = callerInput.apiKey?.trim();
  if (!key || !isWellFormedApiKey(key)) return null;
  const hash = hashApiKey(key);
  const known = knownKey(hash);
  if (!known) return null;
  return {
    caller: { tier: known.tier, accountId: known.accountId, keyId: known.keyId, ip: callerInput.ip },
    pending: { hash, input: callerInput },
  };
}

// $1 key hash, $2 count the burst window?, $3 burst window start
// The burst count commits without waiting for the disk (ASYNC_COMMIT_CTE): a count a Postgres crash forgets
// lets a key a few more calls in that minute, and every admission saves a flush.
const ADMIT_KEY_SQL = `
  with ${ASYNC_COMMIT_CTE}, k as (
    select k.id as key_id, k.hash, k.revoked_at is not null as revoked,
           coalesce(extract(epoch from k.last_used_at) * 1000, 0)::float8 as last_used_ms,
           a.id as account_id, a.tier, w.period_start::text as period_start,
           coalesce(w.grant_remaining + w.purchased_remaining, 0)::int as credits
    from api_keys k
    join accounts a on a.id = k.account_id
    left join credit_wallets w on w.account_id = k.account_id
    where k.hash = $1
  ), burst as (
    insert into quota_counters (bucket, window_start, count)
    select 'burst:key:' || key_id, $3::timestamptz, 1 from k
    where $2::boolean and not revoked
    on conflict (bucket, window_start) do update set count = quota_counters.count + 1
    returning count
  )
  select k.*, (select count from burst) as burst_count, ${ASYNC_COMMIT_COLUMN} from k`;

interface KeyRow {
  key_id: string;
  hash: string;
  revoked: boolean;
  last_used_ms: number | string;
  account_id: string;
  tier: string;
  period_start: string | null;
  credits: number | string;
  burst_count: number | string | null;
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
  if (!caller.accountId || !caller.keyId) throw new ApiError("unauthorized", MISSING_KEY);
}
