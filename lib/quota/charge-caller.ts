import { eq } from "drizzle-orm";
import { ApiError } from "@/lib/api/errors";
import { accounts } from "@/lib/db/schema";
import { ANONYMOUS_DAILY_LOOKUPS, API_KEY_LAST_USED_RESOLUTION_SECONDS, BURST_WINDOW_SECONDS } from "@/lib/config";
import { getDb, type Queryable } from "@/lib/db/client";
import { ASYNC_COMMIT_COLUMN, ASYNC_COMMIT_CTE, runStatement } from "./run-statement";
import type { Caller, KeylessAllowance, QuotaState } from "./caller";
import { anonymousAllowanceBucket, burstBucket, burstExceeded, burstLimit, burstWindow, dailyWindow } from "./check-burst";
import { secondsUntil, startOfNextUtcDay, startOfUtcDay, utcDay, utcMonthStart, windowStart } from "./utc";
import { forgetKey } from "./known-keys";
import { readCounter } from "./counters";
import { refillWalletIfNewMonth } from "./wallet";
import { INVALID_KEY, admitCaller, type PendingAdmission } from "./resolve-caller";
import type { ChargeReceipt } from "./undo-charge";

export interface ChargeOptions {
  db?: Queryable;
  now?: Date;
  /** Filled in place with the wallet / allowance after the charge. */
  state?: QuotaState;
  /** Keyless allowance to count anonymous subjects in (default: the 10 daily lookups). */
  allowance?: KeylessAllowance;
  /**
   * A keyed caller's write that must happen exactly when the charge does (the preflight's evaluation
   * record): it runs in the same statement, so both commit or neither does.
   */
  alongside?: AlongsideWrite;
  /**
   * A keyed caller admitted from the known-key cache (lib/quota/resolve-caller.ts `admitLater`): the
   * charge's statement also does the admission (key still valid, burst window counted, tier, key use
   * time), so the call costs one statement instead of two. Set by the REST wrapper only.
   */
  admission?: PendingAdmission;
  /**
   * The charge's statement commits without waiting for its write-ahead log to reach disk (synchronous_commit
   * off for that one statement; the server's setting is untouched). Only for the charges of reads that leave no
   * other record (search, lookup, lookalikes: READ_CHARGE): a Postgres crash may then forget the last moment's
   * such charges, the claim and the spend together (one statement), so a caller is at worst not charged, never
   * charged twice or charged without its claim. Each keeps its answer from waiting for a disk flush (about 2.5 ms
   * on the bench machine). Never inside a transaction (the setting would cover the whole transaction), and never
   * with `alongside`, whose record must be durable before the answer (preflight rule 7).
   */
  asyncCommit?: boolean;
}

/** The extras of a charge for a read that leaves no other record (ChargeOptions.asyncCommit). */
export const READ_CHARGE = { asyncCommit: true } as const satisfies ChargeExtras;

/**
 * One row inserted in the keyed charge's statement: `insert into <into> select <select>`, its parameters
 * numbered from $1. `name` names the combined prepared statement. If it fails, the charge fails with it
 * (the error is the database's, not a 402), and nothing is spent.
 */
export interface AlongsideWrite {
  name: string;
  /** Table and column list. */
  into: string;
  /** The select list of the row's values. */
  select: string;
  values: unknown[];
}

/**
 * What a route or tool may add to its charge (the rest of ChargeOptions comes from the wrapper): `db` is the
 * route's own open transaction when the charge must commit or roll back with its writes (a watch's creation).
 */
export type ChargeExtras = Pick<ChargeOptions, "allowance" | "alongside" | "asyncCommit" | "db">;

export interface ChargeResult {
  /** Credits spent by this call (0 for a repeat or an anonymous caller). */
  charged: number;
  /** The same caller already paid for (or used) this subject today. */
  repeat: boolean;
  state: QuotaState;
  /** What this charge took, for undoing it if the call then fails (lib/quota/undo-charge.ts); absent when nothing to undo. */
  receipt?: ChargeReceipt;
}

/**
 * The receipt of a charge that took something: none for one made in the caller's transaction (it rolls back
 * with it) or with a write alongside (the record stands for what was paid).
 */
function receiptOf(subject: string, day: string, cost: number, opts: InternalChargeOptions, allowance: KeylessAllowance): ChargeReceipt | undefined {
  if (!(opts.undoable ?? (!opts.db && !opts.alongside))) return undefined;
  return { subject, day, cost, allowance: allowance.name, allowanceLimit: allowance.limit };
}
/** Whether the charge is undoable, decided once on the options the caller passed (the paths below add a `db`). */
type InternalChargeOptions = ChargeOptions & { undoable?: boolean };
const LOOKUPS: KeylessAllowance = { name: "lookups", limit: ANONYMOUS_DAILY_LOOKUPS };

/**
 * Charges a caller for one subject on this UTC day ("search:<q>",
 * "preflight:builtin:baseline:<name>", …). Call it only after the input was
 * validated and the resource found, so rejected requests spend nothing.
 *
 * Keyed: one statement claims the (account, day, subject) row and spends the
 * credits with a conditional UPDATE; a row already there means a repeat (free).
 * Two identical requests at once: the second claim waits for the first
 * statement and then finds its row, so it is charged once (if the first
 * aborted for want of credits, the second tries to pay itself). A wallet that
 * cannot pay → 402 payment_required, and the claim is undone with the statement.
 *
 * Anonymous: the same shape against the IP's daily allowance: a new subject
 * takes one of the 10 daily lookups, a repeat is free, and past the limit → 429
 * with retry_after (seconds) and reset_at (the next UTC midnight).
 */
export async function chargeCaller(
  caller: Caller,
  subject: string,
  cost: number,
  callerOpts: ChargeOptions = {},
): Promise<ChargeResult> {
  const opts: InternalChargeOptions = { undoable: !callerOpts.db && !callerOpts.alongside, ...callerOpts };
  const state = opts.state ?? {};
  if (!Number.isInteger(cost) || cost < 0) throw new Error(`charge cost must be a non-negative integer (got ${cost})`);
  if (!subject) throw new Error("charge subject must not be empty");
  const db = opts.db ?? (await getDb());
  const now = opts.now ?? new Date();
  const day = utcDay(now);

  if (opts.alongside && (!caller.accountId || cost === 0)) throw new Error("a write alongside a charge needs a keyed caller and a cost");
  if (opts.alongside && opts.asyncCommit) throw new Error("a write alongside a charge is committed durably: asyncCommit does not apply");
  if (caller.accountId) {
    if (opts.admission && cost > 0) return admitAndPay(caller, subject, cost, { ...opts, db, now, state, admission: opts.admission });
    if (opts.admission) await admitCaller(opts.admission.input, { db, now, metered: true, state });
    if (cost === 0) return { charged: 0, repeat: false, state };
    const pay = () => payForSubject(db, { accountId: caller.accountId!, keyId: caller.keyId, day, subject, cost, now }, opts.alongside, opts.asyncCommit);
    let paid = await pay();
    // the admission refilled the wallet as of its own clock reading; a call that crossed into a new UTC month
    // since (a refresh probe, a slow query) finds last month's wallet: refill as of the charge, then pay again
    if (paid === "unaffordable" && (await refillWalletIfNewMonth(db, caller.accountId, caller.tier, now))) paid = await pay();
    if (paid === "repeat") return { charged: 0, repeat: true, state };
    if (paid === "unaffordable") {
      // the admission's read of the wallet may predate calls that spent it since: a 402 must not show enough left
      state.creditsRemaining = await walletBalance(db, caller.accountId);
      throw unaffordable(cost);
    }
    state.creditsRemaining = paid.remaining;
    return { charged: cost, repeat: false, state, receipt: receiptOf(subject, day, cost, opts, LOOKUPS) };
  }

  const allowance = opts.allowance ?? LOOKUPS;
  const used = await takeAnonymousLookup(db, {
    ip: caller.ip,
    allowance: allowance.name,
    bucket: anonymousAllowanceBucket(allowance.name, caller.ip),
    day,
    dayStart: startOfUtcDay(now),
    subject,
    limit: allowance.limit,
    asyncCommit: opts.asyncCommit === true,
  });
  if (used === "repeat") {
    // the daily lookups' window is already known (admission read it); another allowance is read now, so a free
    // repeat's headers say where the caller stands in the allowance this route spends (one config audit a day)
    if (allowance.name !== "lookups") {
      const count = await readCounter(db, anonymousAllowanceBucket(allowance.name, caller.ip), startOfUtcDay(now));
      state.allowance = { name: allowance.name, ...dailyWindow(count, now, allowance.limit) };
    }
    return { charged: 0, repeat: true, state };
  }
  if (used === "full") {
    const resetAt = startOfNextUtcDay(now);
    if (allowance.name === "lookups") state.daily = dailyWindow(allowance.limit, now, allowance.limit);
    else state.allowance = { name: allowance.name, ...dailyWindow(allowance.limit, now, allowance.limit) };
    throw new ApiError(
      "rate_limited",
      `without an API key a client IP gets ${allowance.limit} distinct ${allowance.limit === 1 ? allowance.name.replace(/s$/, "") : allowance.name} per UTC day; repeats are free, and a free account key lifts this`,
      { retryAfter: secondsUntil(resetAt, now), resetAt },
    );
  }
  if (allowance.name === "lookups") state.daily = dailyWindow(used, now, allowance.limit);
  else state.allowance = { name: allowance.name, ...dailyWindow(used, now, allowance.limit) };
  return { charged: 0, repeat: false, state, receipt: receiptOf(subject, day, cost, opts, allowance) };
}

/**
 * 402 now when a keyed caller's charge for `subject` would be refused (not a repeat of today, and the wallet
 * holds less than `cost`): for work with side effects that a caller who cannot pay must not cause (a refresh
 * probe). A read, not a hold: the charge itself still decides, so a wallet spent meanwhile is still a 402.
 */
export async function assertAffordable(db: Queryable, accountId: string, subject: string, cost: number, now = new Date()): Promise<void> {
  const read = async () => (await runStatement<{ repeat: boolean; remaining: number | null }>(db, "affordable", AFFORDABLE_SQL, [accountId, utcDay(now), subject]))[0];
  let row = await read();
  if (row.repeat || Number(row.remaining ?? 0) >= cost) return;
  // as in chargeCaller: the admission may have read the clock in the month before `now`
  const [account] = await db.select({ tier: accounts.tier }).from(accounts).where(eq(accounts.id, accountId));
  if (account && (await refillWalletIfNewMonth(db, accountId, account.tier, now))) row = await read();
  if (!row.repeat && Number(row.remaining ?? 0) < cost) throw unaffordable(cost);
}

// $1 account, $2 UTC day, $3 subject
const AFFORDABLE_SQL = `
  select exists (select 1 from credit_charges where account_id = $1 and utc_day = $2::date and subject = $3) as repeat,
         (select grant_remaining + purchased_remaining from credit_wallets where account_id = $1) as remaining`;

async function walletBalance(db: Queryable, accountId: string): Promise<number> {
  const [row] = await runStatement<{ remaining: number | null }>(db, "wallet_balance", WALLET_BALANCE_SQL, [accountId]);
  return Number(row?.remaining ?? 0);
}

// $1 account
const WALLET_BALANCE_SQL = `select (grant_remaining + purchased_remaining)::int as remaining from credit_wallets where account_id = $1`;

function unaffordable(cost: number): ApiError {
  return new ApiError(
    "payment_required",
    `the credit wallet cannot pay for this call (${cost} credit${cost === 1 ? "" : "s"}); it refills on the first day of the next UTC month`,
    { reason: { code: "no_credits", cost } },
  );
}

// Each charge is ONE statement, atomic on its own (one round trip, no BEGIN/COMMIT):
// the claim row of (caller, day, subject) and the spend are data-modifying CTEs of
// the same statement. When the claim is new but the spend cannot happen, the
// final SELECT divides by zero on purpose: plain SQL has no RAISE, and aborting
// the statement is what undoes the claim, so a refused request leaves no trace
// and a concurrent identical request does not mistake it for a paid one.
// Concurrency: an identical request's INSERT waits for the first statement and
// then finds its row (a repeat) or, if that one aborted, claims it itself; the
// wallet UPDATE re-checks the balance on the latest row version after waiting
// for its lock, so the wallet can never go below zero.
const ABORT = "22012"; // division_by_zero, raised only by the guard below

function sqlState(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++) {
    if (typeof e.code === "string") return e.code;
  }
  return undefined;
}

// $1 account, $2 UTC day, $3 subject, $4 cost, $5 key id, $6 now; an alongside write's parameters follow.
const PAY_PARAMS = 6;
// The spend of a claimed charge ($4 cost, $6 now) and the guard that aborts a claim nobody could pay for;
// shared by the pay statement and the admit-and-pay statement.
const SPEND = `spend as (
    update credit_wallets w
    set grant_remaining = greatest(w.grant_remaining - $4::int, 0),
        purchased_remaining = w.purchased_remaining - greatest($4::int - w.grant_remaining, 0),
        updated_at = $6::timestamptz
    from claim
    where w.account_id = claim.account_id and w.grant_remaining + w.purchased_remaining >= $4::int
    returning w.grant_remaining + w.purchased_remaining as remaining
  )`;
const GUARD = `case when (select count(*) from claim) = 1 and (select count(*) from spend) = 0
              then 1 / (select count(*) from spend)::int end as guard`;
// ChargeOptions.asyncCommit
const asyncCommitCte = (on: boolean) => (on ? `${ASYNC_COMMIT_CTE}, ` : "");
const asyncCommitColumn = (on: boolean) => (on ? `${ASYNC_COMMIT_COLUMN}, ` : "");
const alongsideInsert = (w: AlongsideWrite, offset: number, from = "") =>
  `insert into ${w.into} select ${w.select.replace(/\$(\d+)/g, (_, n) => `$${Number(n) + offset}`)}${from} returning 1`;
const paySql = (alongside?: AlongsideWrite, asyncCommit = false) => `
  with ${asyncCommitCte(asyncCommit)}${alongside ? `alongside as (${alongsideInsert(alongside, PAY_PARAMS)}), ` : ""}claim as (
    insert into credit_charges (account_id, utc_day, subject, cost, key_id)
    values ($1, $2::date, $3, $4::int, $5)
    on conflict do nothing
    returning account_id
  ), ${SPEND}
  select ${asyncCommitColumn(asyncCommit)}(select count(*) from claim)::int as claimed,
         (select remaining from spend) as remaining,
         ${GUARD}`;

// $1 ip, $2 allowance, $3 UTC day, $4 subject, $5 counter bucket, $6 UTC day start, $7 limit
const anonymousSql = (asyncCommit: boolean) => `
  with ${asyncCommitCte(asyncCommit)}claim as (
    insert into anonymous_lookups (ip, allowance, utc_day, subject)
    values ($1, $2, $3::date, $4)
    on conflict do nothing
    returning ip
  ), counted as (
    insert into quota_counters (bucket, window_start, count)
    select $5::text, $6::timestamptz, 1 from claim
    on conflict (bucket, window_start) do update set count = quota_counters.count + 1
    where quota_counters.count < $7::int
    returning count
  )
  select ${asyncCommitColumn(asyncCommit)}(select count(*) from claim)::int as claimed,
         (select count from counted) as used,
         case when (select count(*) from claim) = 1 and (select count(*) from counted) = 0
              then 1 / (select count(*) from counted)::int end as guard`;


/**
 * A statement's prepared name and text for an alongside write (one per write shape, `name`) or an async commit,
 * built once per kind of statement.
 */
const built = new Map<string, string>();
function statementFor(
  kind: string,
  w: AlongsideWrite | undefined,
  asyncCommit: boolean,
  build: (w: AlongsideWrite | undefined, asyncCommit: boolean) => string,
): { name: string; text: string } {
  const name = `${kind}${w ? `_${w.name}` : ""}${asyncCommit ? "_async" : ""}`;
  let text = built.get(name);
  if (!text) built.set(name, (text = build(w, asyncCommit)));
  return { name, text };
}

async function payForSubject(
  db: Queryable,
  p: { accountId: string; keyId: string | null; day: string; subject: string; cost: number; now: Date },
  alongside?: AlongsideWrite,
  asyncCommit = false,
): Promise<"repeat" | "unaffordable" | { remaining: number }> {
  const values = [p.accountId, p.day, p.subject, p.cost, p.keyId, p.now.toISOString()];
  try {
    const statement = statementFor("pay", alongside, asyncCommit, paySql);
    const [row] = await runStatement<{ claimed: number; remaining: number | null }>(
      db,
      statement.name,
      statement.text,
      alongside ? [...values, ...alongside.values] : values,
    );
    if (Number(row.claimed) === 0) return "repeat";
    return { remaining: Number(row.remaining) };
  } catch (err) {
    if (sqlState(err) === ABORT) return "unaffordable";
    throw err;
  }
}

async function takeAnonymousLookup(
  db: Queryable,
  p: { ip: string; allowance: string; bucket: string; day: string; dayStart: Date; subject: string; limit: number; asyncCommit: boolean },
): Promise<"repeat" | "full" | number> {
  if (p.limit < 1) return "full";
  try {
    const { name, text } = statementFor("anonymous_lookup", undefined, p.asyncCommit, (_, asyncCommit) => anonymousSql(asyncCommit));
    const [row] = await runStatement<{ claimed: number; used: number | null }>(db, name, text, [
      p.ip,
      p.allowance,
      p.day,
      p.subject,
      p.bucket,
      p.dayStart.toISOString(),
      p.limit,
    ]);
    if (Number(row.claimed) === 0) return "repeat";
    return Number(row.used);
  } catch (err) {
    if (sqlState(err) === ABORT) return "full";
    throw err;
  }
}

// The keyed charge with the caller's admission folded in (ChargeOptions.admission). $1–$6 as in the pay
// statement, then $7 key hash, $8 burst window start, $9 burst limit, $10 UTC month start, $11 the
// last-used time below which the key's use time is written, $12 the burst bucket; an alongside write's
// parameters follow.
// Only a key that is still there and not revoked, with a wallet of this month, counts its burst window;
// only a counted request within the limit claims, pays and writes alongside. Everything else writes
// nothing but the key's use time, and the caller falls back to the two-statement path (a new month's
// refill) or refuses (401, 429). The guard aborts an unaffordable claim exactly as in the pay statement.
const ADMIT_PAY_PARAMS = 12;
const admitPaySql = (alongside: AlongsideWrite | undefined, asyncCommit: boolean) => `
  with ${asyncCommitCte(asyncCommit)}k as (
    select a.tier, coalesce(w.period_start >= $10::date, false) as wallet_current
    from api_keys k
    join accounts a on a.id = k.account_id
    left join credit_wallets w on w.account_id = k.account_id
    where k.id = $5::text and k.hash = $7::text and k.revoked_at is null
  ), touch as (
    update api_keys set last_used_at = $6::timestamptz
    where id = $5::text and exists (select 1 from k) and (last_used_at is null or last_used_at < $11::timestamptz)
    returning 1
  ), burst as (
    insert into quota_counters (bucket, window_start, count)
    select $12::text, $8::timestamptz, 1 from k where k.wallet_current
    on conflict (bucket, window_start) do update set count = quota_counters.count + 1
    returning count
  ), ok as (
    select 1 from burst where count <= $9::int
  ), ${alongside ? `alongside as (${alongsideInsert(alongside, ADMIT_PAY_PARAMS, " from ok")}), ` : ""}claim as (
    insert into credit_charges (account_id, utc_day, subject, cost, key_id)
    select $1::text, $2::date, $3::text, $4::int, $5::text from ok
    on conflict do nothing
    returning account_id
  ), ${SPEND}
  select ${asyncCommitColumn(asyncCommit)}(select count(*) from k)::int as key_found,
         (select tier from k) as tier,
         coalesce((select wallet_current from k), false) as wallet_current,
         (select count from burst) as burst_count,
         (select count(*) from claim)::int as claimed,
         (select remaining from spend) as remaining,
         (select (w.grant_remaining + w.purchased_remaining)::int from credit_wallets w where w.account_id = $1::text) as balance,
         ${GUARD}`;

interface AdmitPayRow {
  key_found: number;
  tier: string | null;
  wallet_current: boolean;
  burst_count: number | string | null;
  claimed: number;
  remaining: number | null;
  balance: number | null;
}

/**
 * chargeCaller for a caller admitted from the known-key cache: one statement admits and pays. A key
 * revoked or deleted since → 401 (and forgotten); a wallet not yet refilled this month → the full
 * admission (which refills) and then the usual charge; past the burst limit → 429; a wallet that cannot
 * pay → the full admission, so the request still counts in its burst window, then 402.
 */
async function admitAndPay(
  caller: Caller,
  subject: string,
  cost: number,
  opts: InternalChargeOptions & { db: Queryable; now: Date; state: QuotaState; admission: PendingAdmission },
): Promise<ChargeResult> {
  const { db, now, state, admission } = opts;
  const threshold = new Date(now.getTime() - API_KEY_LAST_USED_RESOLUTION_SECONDS * 1000);
  const values = [
    caller.accountId,
    utcDay(now),
    subject,
    cost,
    caller.keyId,
    now.toISOString(),
    admission.hash,
    windowStart(now, BURST_WINDOW_SECONDS).toISOString(),
    burstLimit(caller),
    utcMonthStart(now),
    threshold.toISOString(),
    burstBucket(caller),
    ...(opts.alongside?.values ?? []),
  ];
  const statement = statementFor("admit_pay", opts.alongside, opts.asyncCommit === true, admitPaySql);
  // the tier as the database has it (the remembered one may be stale): what the answer's x-tier says, refusals included
  const fullAdmission = async () => void (caller.tier = (await admitCaller(admission.input, { db, now, metered: true, state })).caller.tier);
  let row: AdmitPayRow;
  try {
    [row] = await runStatement<AdmitPayRow>(db, statement.name, statement.text, values);
  } catch (err) {
    // a failed statement (402's guard, or a write alongside that could not be made: 503) took its burst count
    // and the caller's admission with it: admit fully (its 401 and 429 come first), so the request counts and
    // its answer has the headers
    await fullAdmission();
    throw sqlState(err) === ABORT ? unaffordable(cost) : err;
  }
  if (Number(row.key_found) === 0) {
    forgetKey(admission.hash);
    throw new ApiError("unauthorized", INVALID_KEY);
  }
  caller.tier = row.tier === "pro" ? "pro" : "registered";
  if (!row.wallet_current) {
    await fullAdmission();
    return chargeCaller(caller, subject, cost, { ...opts, admission: undefined });
  }
  const count = Number(row.burst_count);
  state.burst = burstWindow(caller, count, now);
  state.creditsRemaining = Number(row.balance ?? 0);
  if (count > burstLimit(caller)) throw burstExceeded(caller, state, now);
  if (Number(row.claimed) === 0) return { charged: 0, repeat: true, state };
  state.creditsRemaining = Number(row.remaining);
  return { charged: cost, repeat: false, state, receipt: receiptOf(subject, utcDay(now), cost, opts, LOOKUPS) };
}
