import { headers } from "next/headers";
import { ApiError, type ErrorBody } from "./errors";
import { admitCaller, callerInputFrom, chargeCaller, type Caller, type ChargeExtras, type ChargeResult, type QuotaState } from "@/lib/quota";

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
  try {
    const { caller } = await admitCaller(input, { metered: true, state });
    const charge = (subject: string, cost: number, extras: ChargeExtras = {}) => chargeCaller(caller, subject, cost, { ...extras, state });
    return { ok: true, value: await run({ caller, charge }) };
  } catch (err) {
    if (err instanceof ApiError) return { ok: false, status: err.status, body: err.toBody() };
    throw err;
  }
}
