import { z } from "zod";
import type { Queryable } from "@/lib/db/client";
import { createAccount } from "@/lib/accounts/create-account";
import { createApiKey } from "@/lib/accounts/create-api-key";

export const issueApiKeyInputSchema = z.strictObject({
  email: z.email().max(254),
  tier: z.enum(["registered", "pro"]).default("registered"),
});
export type IssueApiKeyInput = z.infer<typeof issueApiKeyInputSchema>;

/**
 * An operator's way to give someone a key without the browser flow: the account
 * (created when the e-mail is new, with its wallet) and a fresh key, shown once.
 */
export async function issueApiKey(db: Queryable, input: IssueApiKeyInput) {
  const account = await createAccount({ email: input.email, tier: input.tier }, { db });
  const key = await createApiKey(account.id, { db });
  return { ok: true as const, account_id: account.id, tier: account.tier, key: key.key, key_id: key.keyId, prefix: key.prefix };
}
