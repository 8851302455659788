"use server";

import { revalidatePath } from "next/cache";
import { createApiKey } from "@/lib/accounts/create-api-key";
import { revokeApiKey } from "@/lib/accounts/revoke-api-key";
import { sendReplacementKey } from "@/lib/accounts/send-replacement-key";
import { ApiError } from "@/lib/api/errors";
import { currentAccount } from "@/lib/auth/current-account";
import { log } from "@/lib/log";

export interface CreateKeyState {
  key?: string;
  prefix?: string;
  error?: string;
}

/** Creates a key and hands the plaintext to this one response; it is never shown again. */
export async function createKeyAction(_prev: CreateKeyState): Promise<CreateKeyState> {
  const account = await currentAccount();
  if (!account) return { error: "Your session ended; sign in again." };
  try {
    const created = await createApiKey(account.id);
    log.info("api key created", { accountId: account.id, keyId: created.keyId, prefix: created.prefix });
    revalidatePath("/account");
    return { key: created.key, prefix: created.prefix };
  } catch (err) {
    if (err instanceof ApiError) return { error: err.message };
    throw err;
  }
}

export async function revokeKeyAction(formData: FormData): Promise<void> {
  const account = await currentAccount();
  if (!account) return;
  const keyId = String(formData.get("keyId") ?? "");
  if (await revokeApiKey(account.id, keyId)) log.info("api key revoked", { accountId: account.id, keyId });
  revalidatePath("/account");
}

export interface LostKeyState {
  sentTo?: string;
  /** The new key's visible prefix (its value is only in the e-mail). */
  prefix?: string;
  error?: string;
}

/** Sends a new key to the account's e-mail address; the page never shows its value. */
export async function lostKeyAction(_prev: LostKeyState): Promise<LostKeyState> {
  const account = await currentAccount();
  if (!account) return { error: "Your session ended; sign in again." };
  try {
    const { to, prefix } = await sendReplacementKey(account.id);
    log.info("replacement api key sent", { accountId: account.id, prefix });
    revalidatePath("/account");
    return { sentTo: to, prefix };
  } catch (err) {
    if (err instanceof ApiError) return { error: err.message };
    log.error("replacement key mail failed", { accountId: account.id, error: err instanceof Error ? err.message : String(err) });
    return { error: "The e-mail with a new key could not be sent, so no key was made. Try again in a few minutes." };
  }
}
