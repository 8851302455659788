import { ACCOUNT_MAIL_PER_ADDRESS_PER_HOUR } from "@/lib/config";
import { getDb, type Queryable } from "@/lib/db/client";
import { incrementCounterBelow } from "@/lib/quota/counters";
import { windowStart } from "@/lib/quota/utc";

// Gmail ignores dots in the local part and knows googlemail.com as gmail.com.
const GMAIL_DOMAINS = new Set(["gmail.com", "googlemail.com"]);

/**
 * The inbox an address reaches, as far as the allowance can tell: the `+tag` of the local part dropped (Gmail,
 * Outlook, Fastmail, iCloud, Proton and most self-hosted servers deliver `victim+1@…` to `victim@…`), and for
 * Gmail the dots too. Counted by the address as written, `victim+1@`, `victim+2@`, … each had 5 mails an hour
 * of their own, and one inbox could be sent any number. Only the count uses it: mail goes to the address given.
 */
export function mailboxOf(address: string): string {
  const email = address.trim().toLowerCase();
  const at = email.lastIndexOf("@");
  if (at <= 0) return email;
  let local = email.slice(0, at);
  let domain = email.slice(at + 1);
  const plus = local.indexOf("+");
  if (plus > 0) local = local.slice(0, plus);
  if (GMAIL_DOMAINS.has(domain)) {
    local = local.replaceAll(".", "");
    domain = "gmail.com";
  }
  return `${local}@${domain}`;
}

/**
 * Takes one of an inbox's account mails for this hour (sign-in links and replacement keys together);
 * false once ACCOUNT_MAIL_PER_ADDRESS_PER_HOUR are spent. Anyone may ask for a sign-in link to any address,
 * so without this the service would send as much mail to a stranger as it is asked to.
 */
export async function takeAccountMail(address: string, opts: { db?: Queryable; now?: Date } = {}): Promise<boolean> {
  const db = opts.db ?? (await getDb());
  const bucket = `mail:${mailboxOf(address)}`;
  return (await incrementCounterBelow(db, bucket, windowStart(opts.now ?? new Date(), 3600), ACCOUNT_MAIL_PER_ADDRESS_PER_HOUR)) !== null;
}

export const TOO_MUCH_MAIL = `at most ${ACCOUNT_MAIL_PER_ADDRESS_PER_HOUR} account e-mails an hour go to one address; try again within the hour`;
