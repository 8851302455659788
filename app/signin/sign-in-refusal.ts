import { ACCOUNT_MAIL_PER_ADDRESS_PER_HOUR, SIGN_IN_REQUESTS_PER_CLIENT_PER_HOUR } from "@/lib/config";

const HOUR_MS = 3_600_000;

/**
 * When to ask again, as a sentence: `retry` is the end of the refusing hour, as the auth route put it in the
 * address (lib/auth/sign-in-allowance.ts). The page may be reloaded later, or the value edited: a time past is
 * "now", one that is no time or over an hour ahead is "within the hour".
 */
export function retrySentence(retry: string | undefined, now: Date): string {
  const at = retry ? new Date(retry) : null;
  const ms = at ? at.getTime() - now.getTime() : NaN;
  if (!at || Number.isNaN(ms) || ms > HOUR_MS) return "Try again within the hour.";
  if (ms <= 0) return "You can ask for a link again now.";
  const minutes = Math.ceil(ms / 60_000);
  return `Try again after ${at.toISOString().slice(11, 16)} UTC (in ${minutes} minute${minutes === 1 ? "" : "s"}).`;
}

/**
 * The sign-in page's words for a request the hourly limits refused, or null for another error. Neither says
 * whether the address has an account: both limits count addresses with and without one alike.
 */
export function signInRefusalText(error: string | undefined, retry: string | undefined, now: Date): string | null {
  if (error === "TooManySignInRequests") {
    return `No link was sent: your network has asked for ${SIGN_IN_REQUESTS_PER_CLIENT_PER_HOUR} sign-in links this hour, the most we send for one network. ${retrySentence(retry, now)}`;
  }
  if (error === "TooManyAccountMails") {
    return `No link was sent: that address has been sent ${ACCOUNT_MAIL_PER_ADDRESS_PER_HOUR} account e-mails this hour, the most we send to one inbox. ${retrySentence(retry, now)}`;
  }
  return null;
}
