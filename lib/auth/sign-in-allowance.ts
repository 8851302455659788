import { SIGN_IN_REQUESTS_PER_CLIENT_PER_HOUR } from "@/lib/config";
import { getDb, type Queryable } from "@/lib/db/client";
import { incrementCounterBelow } from "@/lib/quota/counters";
import { windowStart } from "@/lib/quota/utc";
import { takeAccountMail } from "./mail-allowance";

const HOUR_SECONDS = 3600;

/** Why a sign-in link was not sent, and when the hour that refused it ends. */
export interface SignInRefusal {
  /** `client`: this client's SIGN_IN_REQUESTS_PER_CLIENT_PER_HOUR; `address`: the inbox's account mails. */
  limit: "client" | "address";
  retryAt: Date;
}

/**
 * Takes one sign-in link request of `client` (allowanceAddress(clientIp(req))) to `address`: the client's hourly
 * count first, so a client past its own limit spends nothing of a stranger's inbox, then the inbox's account mails
 * (takeAccountMail). Asked before next-auth writes the link's verification token: a refused request leaves no row.
 */
export async function takeSignInRequest(
  client: string,
  address: string,
  opts: { db?: Queryable; now?: Date } = {},
): Promise<SignInRefusal | null> {
  const db = opts.db ?? (await getDb());
  const now = opts.now ?? new Date();
  const window = windowStart(now, HOUR_SECONDS);
  const retryAt = new Date(window.getTime() + HOUR_SECONDS * 1000);
  if ((await incrementCounterBelow(db, `signin:ip:${client}`, window, SIGN_IN_REQUESTS_PER_CLIENT_PER_HOUR)) === null) {
    return { limit: "client", retryAt };
  }
  if (!(await takeAccountMail(address, { db, now }))) return { limit: "address", retryAt };
  return null;
}

/** The sign-in page's error code of each refusal (app/signin/page.tsx words it). */
export const SIGN_IN_REFUSAL_ERROR: Record<SignInRefusal["limit"], string> = {
  client: "TooManySignInRequests",
  address: "TooManyAccountMails",
};

/**
 * Where a refused request sends the browser: the sign-in page with the refusal and the end of its hour (a path: the
 * browser resolves it against the auth route's own origin, which on Vercel is the request's host).
 */
export function signInRefusalPath(refusal: SignInRefusal): string {
  return `/signin?${new URLSearchParams({ error: SIGN_IN_REFUSAL_ERROR[refusal.limit], retry: refusal.retryAt.toISOString() })}`;
}
