import { headers } from "next/headers";
import { ApiError, type ErrorBody } from "./errors";
import {
  admitCaller,
  callerInputFrom,
  chargeCaller,
  undoCharges,
  type Caller,
  type ChargeExtras,
  type ChargeReceipt,
  type ChargeResult,
  type QuotaState,
} from "@/lib/quota";

/** What a page's metered call ends in: the service's answer, or the refusal REST would send as its Error body. */
export type PageCallResult<T> = { ok: true; value: T } | { ok: false; status: number; body: ErrorBody };

export interface PageCallContext {
  caller: Caller;
  charge: (subject: string, cost: number, extras?: ChargeExtras) => Promise<ChargeResult>;
}

/**
 * A metered service call made by a page (a server component or a form action) for the person reading it, counted
 * as withCaller counts the REST twin for the same caller: the admission (a key: 401 when it is not valid; the
 * burst window: 429), then the service's own charge (a key's credits, or the client address's anonymous allowance,
 * a repeat the same UTC day free; 402/429). `apiKey` is a key the person typed into the page's form: pages never
 * read the x-api-key header, which a browser does not send. Refusals come back as values, for the page to show;
 * anything else is thrown to the error boundary, as REST answers it with a 500.
 */
export async function callForPage<T>(apiKey: string | null, run: (ctx: PageCallContext) => Promise<T>): Promise<PageCallResult<T>> {
  // the client address exactly as REST reads it; the key only from the form
  const input = { ...callerInputFrom({ headers: await headers() }), apiKey, keyInAuthorization: false };
  const state: QuotaState = {};
  // as on REST: what the call's charges took goes back if the call then fails (lib/quota/undo-charge.ts)
  const receipts: ChargeReceipt[] = [];
  let caller: Caller | undefined;
  try {
    const who = (caller = (await admitCaller(input, { metered: true, state })).caller);
    const charge = async (subject: string, cost: number, extras: ChargeExtras = {}) => {
      const result = await chargeCaller(who, subject, cost, { ...extras, state });
      if (result.receipt) receipts.push(result.receipt);
      return result;
    };
    return { ok: true, value: await run({ caller: who, charge }) };
  } catch (err) {
    if (caller) await undoCharges(caller, receipts, state);
    if (err instanceof ApiError) return { ok: false, status: err.status, body: err.toBody() };
    throw err;
  }
}
