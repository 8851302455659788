"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { ApiError } from "@/lib/api/errors";
import { parseWith } from "@/lib/api/request";
import { accountCaller, payingAccountCaller } from "@/lib/auth/account-caller";
import { currentAccount } from "@/lib/auth/current-account";
import { getDb } from "@/lib/db/client";
import { chargeCaller } from "@/lib/quota";
import { watchInputSchema, type WatchView } from "@/lib/schemas/watch";
import { createWatch } from "@/lib/services/create-watch";
import { deleteWatch } from "@/lib/services/delete-watch";
import { log } from "@/lib/log";
import { watchRefusal } from "./watch-refusal";

export interface CreateWatchState {
  created?: boolean;
  watch?: WatchView;
  /** Only in the answer that created the watch: shown once, like POST /v1/watch. */
  secret?: string;
  error?: string;
  /** What was submitted, on an error: the form shows it again (React resets a form after its action). */
  values?: WatchFormValues;
}

export interface WatchFormValues {
  server_name: string;
  webhook_url: string;
  email: string;
  events: string[];
  label: string;
}

const text = (v: FormDataEntryValue | null) => (typeof v === "string" && v.trim() ? v.trim() : undefined);

/** POST /v1/watch for the signed-in account: the same schema, service, limits and 10 credits. */
export async function createWatchAction(_prev: CreateWatchState, form: FormData): Promise<CreateWatchState> {
  const account = await currentAccount();
  if (!account) return { error: "Your session ended; sign in again." };
  const events = form.getAll("events").map(String);
  const submitted = (name: string) => (typeof form.get(name) === "string" ? String(form.get(name)) : "");
  const values: WatchFormValues = { server_name: submitted("server_name"), webhook_url: submitted("webhook_url"), email: submitted("email"), events, label: submitted("label") };
  // the form's event boxes all start ticked: none ticked is a choice the schema refuses, not "every kind"
  if (!events.length) return { error: "Tick at least one event kind.", values };
  const body = {
    server_name: text(form.get("server_name")),
    webhook_url: text(form.get("webhook_url")),
    email: text(form.get("email")),
    events,
    label: text(form.get("label")),
  };
  try {
    const input = parseWith(watchInputSchema, body);
    const db = await getDb();
    const caller = await payingAccountCaller(db, account);
    const result = await createWatch(db, input, { caller, charge: (subject, cost, extras) => chargeCaller(caller, subject, cost, extras) });
    if (result.created) log.info("watch created from the web", { accountId: account.id, watchId: result.watch.id });
    revalidatePath("/watches");
    return { created: result.created, watch: result.watch, secret: result.secret };
  } catch (err) {
    if (err instanceof ApiError) return { error: watchRefusal(err, body), values };
    throw err;
  }
}

/** DELETE /v1/watch?id= for the signed-in account. */
export async function deleteWatchAction(form: FormData): Promise<void> {
  const account = await currentAccount();
  // as revokeKeyAction: a session that ended must not leave the watch running with the page saying nothing
  if (!account) redirect("/signin?callbackUrl=/watches");
  try {
    await deleteWatch(await getDb(), accountCaller(account), String(form.get("id") ?? ""));
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
  }
  revalidatePath("/watches");
}
