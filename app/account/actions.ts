"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { mailNewKey, type NewKeyReason } from "@/lib/accounts/mail-new-key";
import { revokeApiKey } from "@/lib/accounts/revoke-api-key";
import { ApiError } from "@/lib/api/errors";
import { currentAccount } from "@/lib/auth/current-account";
import { errorMessage } from "@/lib/db/query-error";
import { log } from "@/lib/log";
import { keyRefusal } from "./key-refusal";

export interface KeyMailState {
  sentTo?: string;
  /** The new key's visible prefix (its value is only in the e-mail: the key is hidden from web pages). */
  prefix?: string;
  /** The new key's name as kept; on an error, the name as typed, which the form shows again. */
  name?: string;
  error?: string;
}

/** Makes a key and sends it to the account's e-mail address; the page never shows its value. */
async function mailKey(reason: NewKeyReason, typedName = ""): Promise<KeyMailState> {
  const account = await currentAccount();
  if (!account) return { error: "Your session ended; sign in again.", name: typedName };
  try {
    const { to, prefix, name } = await mailNewKey(account.id, reason, { name: typedName });
    log.info(reason === "lost" ? "replacement api key sent" : "api key created and sent", { accountId: account.id, prefix });
    revalidatePath("/account");
    return { sentTo: to, prefix, ...(name ? { name } : {}) };
  } catch (err) {
    if (err instanceof ApiError) return { error: keyRefusal(err, typedName), name: typedName };
    // errorMessage: a failed statement's own message lists its values, and the dev mailbox's row holds the key
    log.error("api key mail failed", { accountId: account.id, error: errorMessage(err) });
    return { error: "The e-mail with the new key could not be sent, so no key was made. Try again in a few minutes.", name: typedName };
  }
}

/** The key form: an optional name (a field other than text, or none, is no name). */
export async function createKeyAction(_prev: KeyMailState, form: FormData): Promise<KeyMailState> {
  const name = form.get("name");
  return mailKey("created", typeof name === "string" ? name : "");
}

export async function lostKeyAction(_prev: KeyMailState): Promise<KeyMailState> {
  return mailKey("lost");
}

export async function revokeKeyAction(formData: FormData): Promise<void> {
  const account = await currentAccount();
  // a session that ended meanwhile (signed out in another tab, expired): returning quietly left the page as it
  // was, the key listed and live with no word said, to someone who may be revoking a leaked key; the sign-in
  // page brings them back here to do it
  if (!account) redirect("/signin?callbackUrl=/account");
  const keyId = String(formData.get("keyId") ?? "");
  if (await revokeApiKey(account.id, keyId)) log.info("api key revoked", { accountId: account.id, keyId });
  revalidatePath("/account");
}
