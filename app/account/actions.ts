"use server";

import { revalidatePath } from "next/cache";
import { createApiKey } from "@/lib/accounts/create-api-key";
import { revokeApiKey } from "@/lib/accounts/revoke-api-key";
import { sendLostKeyNotice } from "@/lib/accounts/send-lost-key-notice";
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
  error?: string;
}

export async function lostKeyAction(_prev: LostKeyState): Promise<LostKeyState> {
  const account = await currentAccount();
  if (!account) return { error: "Your session ended; sign in again." };
  const { to } = await sendLostKeyNotice(account.id);
  return { sentTo: to };
}
