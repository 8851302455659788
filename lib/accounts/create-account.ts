import { eq } from "drizzle-orm";
import { MONTHLY_CREDIT_GRANT } from "@/lib/config";
import { getDb, type Queryable } from "@/lib/db/client";
import { accounts, creditWallets, type AccountRow } from "@/lib/db/schema";
import { utcMonthStart } from "@/lib/quota/utc";
import { newId } from "./new-id";

export type AccountTier = keyof typeof MONTHLY_CREDIT_GRANT;

export interface CreateAccountInput {
  email: string;
  tier?: AccountTier;
  name?: string | null;
  emailVerifiedAt?: Date | null;
  /** Credits bought on top of the monthly grant (never expire). */
  purchased?: number;
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Creates an account and its wallet with this month's grant. Used by the sign-in
 * adapter, by tests and by scripts (no browser needed). An existing e-mail
 * returns the existing account unchanged.
 */
export async function createAccount(
  input: CreateAccountInput,
  opts: { db?: Queryable; now?: Date } = {},
): Promise<AccountRow> {
  const db = opts.db ?? (await getDb());
  const now = opts.now ?? new Date();
  const tier = input.tier ?? "registered";
  if (!(tier in MONTHLY_CREDIT_GRANT)) throw new Error(`unknown account tier ${tier}`);
  const email = normalizeEmail(input.email);
  const id = newId("acc");
  // One transaction: an account written without its wallet (the wallet's insert failed, the process was killed
  // between the two) would stay walletless for good, since sign-in creates an account only when none is found
  // for the address, and every keyed call of it would be refused 402.
  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(accounts)
      .values({ id, email, tier, name: input.name ?? null, emailVerifiedAt: input.emailVerifiedAt ?? null })
      .onConflictDoNothing({ target: accounts.email })
      .returning();
    const account = inserted[0] ?? (await tx.select().from(accounts).where(eq(accounts.email, email)))[0];
    const grant = MONTHLY_CREDIT_GRANT[account.tier as AccountTier] ?? 0;
    await tx
      .insert(creditWallets)
      .values({
        accountId: account.id,
        periodStart: utcMonthStart(now),
        grantAmount: grant,
        grantRemaining: grant,
        purchasedRemaining: input.purchased ?? 0,
      })
      .onConflictDoNothing();
    return account;
  });
}
