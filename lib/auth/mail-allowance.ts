import { ACCOUNT_MAIL_PER_ADDRESS_PER_HOUR } from "@/lib/config";
import { getDb, type Queryable } from "@/lib/db/client";
import { incrementCounterBelow } from "@/lib/quota/counters";
import { windowStart } from "@/lib/quota/utc";

/**
 * Takes one of an address's account mails for this hour (sign-in links and replacement keys together);
 * false once ACCOUNT_MAIL_PER_ADDRESS_PER_HOUR are spent. Anyone may ask for a sign-in link to any address,
 * so without this the service would send as much mail to a stranger as it is asked to.
 */
export async function takeAccountMail(address: string, opts: { db?: Queryable; now?: Date } = {}): Promise<boolean> {
  const db = opts.db ?? (await getDb());
  const bucket = `mail:${address.trim().toLowerCase()}`;
  return (await incrementCounterBelow(db, bucket, windowStart(opts.now ?? new Date(), 3600), ACCOUNT_MAIL_PER_ADDRESS_PER_HOUR)) !== null;
}

export const TOO_MUCH_MAIL = `at most ${ACCOUNT_MAIL_PER_ADDRESS_PER_HOUR} account e-mails an hour go to one address; try again within the hour`;
