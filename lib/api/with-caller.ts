import { randomUUID } from "node:crypto";
import type { ZodType } from "zod";
import { errorResponse, json } from "./respond";
import { ApiError } from "./errors";
import { closedInput, NO_INPUT, parseQuery } from "./request";
import {
  admitCaller,
  admitLater,
  chargeCaller,
  currentWindows,
  quotaHeaders,
  type Caller,
  type ChargeExtras,
  type ChargeResult,
  type KeylessAllowance,
  type PendingAdmission,
  type QuotaState,
  type ChargeReceipt,
  undoCharges,
} from "@/lib/quota";

export interface RouteContext<P, Q = undefined> {
  req: Request;
  url: URL;
  params: P;
  /** The query string parsed with the route's `query` schema (undefined where the route takes none). */
  query: Q;
  requestId: string;
  /** Headers the adapter adds to the response (quota headers, cache headers, …). */
  headers: Headers;
  /** Who is calling (anonymous `free` tier when no key was sent). */
  caller: Caller;
  /**
   * Pays for `subject` on this UTC day (`cost` defaults to the route's `cost`
   * option): credits for keyed callers, the daily lookup allowance for
   * anonymous ones; a repeat of the same subject the same day is free. Call it
   * after input validation and the existence check, so rejected requests spend
   * nothing. Throws 402 payment_required or 429 rate_limited. `options.allowance`
   * counts anonymous subjects in another keyless allowance than the daily lookups
   * (config audit: one config per IP per day); `options.alongside` is a keyed caller's write made in the
   * charge's own statement (the preflight's evaluation record).
   */
  charge: (subject: string, cost?: number, options?: ChargeExtras) => Promise<ChargeResult>;
  /**
   * On a route with `admitWithCharge`, finishes the caller's admission now (401, 429) instead of in the
   * charge's statement: for work with side effects that must not run for a revoked key (a refresh
   * probe). A no-op elsewhere and once done.
   */
  admit: () => Promise<void>;
}

export interface WithCallerOptions<Q = undefined> {
  /**
   * The route's query parameters. A zod schema: parsed closed (closedInput), each parameter once, and handed to
   * the handler as `query`. Left out: the route takes none, and any parameter is a 400 naming it (the rule of
   * every /v1 route, README "Query parameters": a typo must not silently leave a default). "unchecked": the
   * route reads its query itself, or not at all: the operator routes (their secret is checked first, by the
   * route) and the 404 and 405 refusals (a wrong path or method is what is wrong, whatever the query).
   */
  query?: ZodType<Q> | "unchecked";
  /** 401 unless a valid x-api-key was sent. */
  keyRequired?: boolean;
  /** Burst limits and quota headers (also on keyRequired routes); `charge` works only on metered routes. */
  metered?: boolean;
  /** Default cost of `charge(subject)` on this route. */
  cost?: number;
  /** The keyless allowance the route charges in, if not the daily lookups: anonymous headers describe it, refusals included. */
  allowance?: KeylessAllowance;
  /**
   * A key this process has admitted before is admitted by the statement that pays for the call (one
   * statement instead of two; lib/quota/charge-caller.ts `admission`). For routes whose successful calls
   * always pay; a call that ends without paying is admitted before its answer goes out, so the order of
   * refusals (401, 429, then the route's own) holds.
   */
  admitWithCharge?: boolean;
}

type Handler<P, Q> = (ctx: RouteContext<P, Q>) => Promise<unknown>;

/**
 * Wraps a route handler (Dub's withWorkspace shape). In order: resolve the key
 * (invalid or revoked → 401 even where a key is optional; missing where
 * required → 401), burst limit on metered and key-only routes (429), then the handler, which
 * parses input (400), finds the resource (404) and calls `charge` (402/429).
 * The handler returns data (sent as JSON 200) or a Response; every thrown error
 * becomes the contract's Error body; metered responses, errors included, carry
 * the quota headers.
 */
/**
 * A wrapped route: Next.js calls it with the segment params; tests and other
 * adapters may call it with the request alone. (Next's route type check reads
 * the last signature, so the two-argument one comes last.)
 */
export interface WrappedRoute<P> {
  (req: Request): Promise<Response>;
  (req: Request, ctx: { params: Promise<P> }): Promise<Response>;
}

export function withCaller<P = Record<string, string>, Q = undefined>(handler: Handler<P, Q>, options: WithCallerOptions<Q> = {}): WrappedRoute<P> {
  const metered = options.metered === true;
  // closed once, here: parsing it after the admission (401, 429 first) and before the handler, so a refused
  // parameter spends nothing
  const querySchema = options.query === "unchecked" ? null : closedInput<unknown>(options.query ?? NO_INPUT);
  // every call made with a required key counts in that key's burst window (DESIGN §7: 60 a minute per key),
  // not only the paid ones: a key must not read its wallet, evaluations or watches thousands of times a
  // minute. The count rides in the key look-up's own statement.
  const counted = metered || options.keyRequired === true;
  return async (req: Request, ctx?: { params?: Promise<P> }): Promise<Response> => {
    const requestId = randomUUID();
    const headers = new Headers();
    // an answer about one caller (its quota headers, its account's data) is for that caller alone: no shared
    // cache may keep it, and no cache at all may answer the next call without counting it
    if (metered || options.keyRequired) headers.set("cache-control", "private, no-store");
    let caller: Caller | undefined;
    let fromMemory = false;
    const state: QuotaState = {};
    // what this call's charges took: given back if the call fails after them, since its caller gets no answer
    const receipts: ChargeReceipt[] = [];
    const withQuotaHeaders = async () => {
      if (!counted || !caller) return;
      const now = new Date();
      // the windows as they are when the answer goes out: one may have ended while the call ran
      await currentWindows(caller, state, now);
      for (const [k, v] of Object.entries(quotaHeaders(caller, state, now))) headers.set(k, v);
    };
    try {
      // Next answers HEAD with the GET handler and drops the body: on a metered route that would spend credits
      // (or one of the anonymous lookups) and record an evaluation for an answer nobody receives
      if (metered && req.method === "HEAD") {
        throw new ApiError("method_not_allowed", `HEAD is not answered on ${new URL(req.url).pathname}: it would be charged like GET for a body it does not send; use GET`, {
          headers: { allow: "GET, OPTIONS" },
        });
      }
      // key (401), then burst window (429, which brings its own quota headers); a known key on a route
      // that admits with its charge leaves both to the charge (or to `admit` below)
      let pending: PendingAdmission | undefined;
      const later = metered && options.admitWithCharge ? admitLater(req) : null;
      if (later) {
        fromMemory = true;
        caller = later.caller;
        pending = later.pending;
      } else {
        // a route without auth (neither needs nor meters a key) does not read it
        const keyless = !metered && !options.keyRequired;
        caller = (await admitCaller(req, { metered: counted, keyRequired: options.keyRequired, keyless, allowance: options.allowance, state })).caller;
      }
      const who = caller;
      const admit = async () => {
        const input = pending?.input;
        pending = undefined;
        // the tier as the database has it now: the process remembered the one of the key's last full admission
        if (input) who.tier = (await admitCaller(input, { metered, keyRequired: options.keyRequired, state })).caller.tier;
      };
      const charge = async (subject: string, cost = options.cost, extras: ChargeExtras = {}): Promise<ChargeResult> => {
        if (!metered) throw new Error("charge() called on a route wrapped without { metered: true }");
        if (cost === undefined) throw new Error("charge() needs a cost (argument or the route's cost option)");
        const admission = pending;
        pending = undefined;
        const result = await chargeCaller(who, subject, cost, { ...extras, state, admission });
        if (result.receipt) receipts.push(result.receipt);
        return result;
      };
      const params = ((await ctx?.params) ?? {}) as P;
      let result: unknown;
      try {
        const url = new URL(req.url);
        const parsed = querySchema ? parseQuery(querySchema, url) : undefined;
        const query = (options.query === undefined ? undefined : parsed) as Q;
        result = await handler({ req, url, params, query, requestId, headers, caller, charge, admit });
      } catch (err) {
        await admit(); // a refused admission (401, 429) answers before the route's own refusal
        throw err;
      }
      await admit();
      await withQuotaHeaders();
      if (result instanceof Response) {
        headers.forEach((v, k) => {
          if (!result.headers.has(k)) result.headers.set(k, v);
        });
        return result;
      }
      return json(result, { status: 200, headers });
    } catch (err) {
      // a key taken from memory and then refused (revoked, deleted) was never a caller: as on the full
      // admission's 401, nothing about its account goes out
      if (err instanceof ApiError && err.code === "unauthorized" && fromMemory) caller = undefined;
      if (caller) await undoCharges(caller, receipts, state);
      await withQuotaHeaders();
      return errorResponse(err, requestId, Object.fromEntries(headers));
    }
  };
}
