import { beforeEach, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { creditWallets, watches } from "@/lib/db/schema";
import { resetDb } from "../helpers/db";
import { session } from "../helpers/signed-in-session";
import { keyedAccount, loadFixtureCatalog, walletRemaining } from "../helpers/catalog-fixture";
import { utcMonthStart } from "@/lib/quota/utc";

// The /watches form's server action with a signed-in account (the session itself is next-auth's, tested in
// the browser test): what the form sends is what the API would be sent.
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));
vi.mock("@/lib/auth/current-account", () => import("../helpers/signed-in-session"));
const { createWatchAction, deleteWatchAction } = await import("@/app/watches/actions");

let db: Db;
beforeEach(async () => {
  db = await resetDb();
  await loadFixtureCatalog(db);
});

function form(fields: Record<string, string | string[]>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) for (const x of [v].flat()) f.append(k, x);
  return f;
}

describe("the watch form's action", () => {
  it("refuses a form with every event box unticked instead of watching every kind", async () => {
    const a = await keyedAccount(db, { credits: 100 });
    session.accountId = a.accountId;
    const none = await createWatchAction({}, form({ server_name: "io.github.acme/weather", email: "ops@example.com" }));
    expect(none.error).toBe("Tick at least one event kind.");
    // what was typed comes back, for the form to show again
    expect(none.values).toEqual({ server_name: "io.github.acme/weather", webhook_url: "", email: "ops@example.com", events: [], label: "" });
    expect(await db.select().from(watches)).toEqual([]);
    const two = await createWatchAction({}, form({ server_name: "io.github.acme/weather", email: "ops@example.com", events: ["remote_down", "security"] }));
    expect(two.created).toBe(true);
    expect(two.watch!.events).toEqual(["remote_down", "security"]);
  });

  it("pays from this month's grant when the wallet still holds an earlier month's, as a key's call would", async () => {
    // last month's grant spent down to 3: a new UTC month gives 1,000 again, also to an account that signs in
    // and goes straight to this page (no API call has refilled its wallet yet)
    const a = await keyedAccount(db, { credits: 3 });
    const now = new Date();
    const lastMonth = utcMonthStart(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 15)));
    await db.update(creditWallets).set({ periodStart: lastMonth }).where(eq(creditWallets.accountId, a.accountId));
    session.accountId = a.accountId;
    const made = await createWatchAction({}, form({ server_name: "io.github.acme/weather", email: "ops@example.com", events: "security" }));
    expect(made.error).toBeUndefined();
    expect(made.created).toBe(true);
    expect(await walletRemaining(db, a.accountId)).toBe(990);
    const [wallet] = await db.select().from(creditWallets).where(eq(creditWallets.accountId, a.accountId));
    expect(wallet.periodStart).toBe(utcMonthStart(now));
  });

  it("sends a visitor whose session ended from the stop button to sign in again, and leaves the watch running", async () => {
    const a = await keyedAccount(db, { credits: 100 });
    session.accountId = a.accountId;
    const made = await createWatchAction({}, form({ server_name: "io.github.acme/weather", email: "ops@example.com", events: "security" }));
    session.accountId = null;
    // returning quietly left the page as it was, the watch listed and still notifying, without a word
    await expect(deleteWatchAction(form({ id: made.watch!.id }))).rejects.toMatchObject({ digest: expect.stringContaining(";/signin?callbackUrl=/watches;") });
    const [row] = await db.select().from(watches);
    expect(row.status).toBe("active");
  });

  // the form showed the API's Error message, in zod's words and with field paths: "body: a watch needs a
  // webhook_url, …", "label: Too big: expected string to have <=200 characters", "events.0: Invalid option: …"
  it.each([
    ["no webhook URL and no e-mail", {}, "Give a webhook URL, an e-mail address, or both."],
    ["a plain http webhook URL", { webhook_url: "http://hooks.example.com/x" }, "Webhook URL must start with https:// (http is refused)."],
    ["a webhook URL that is not a URL", { webhook_url: "hooks.example.com/x" }, "Webhook URL must be a whole address starting with https://."],
    ["an e-mail address without a domain", { email: "a@b" }, "E-mail must be an address like you@example.com; “a@b” is not one."],
    ["a label over 200 characters", { email: "ops@example.com", label: "L".repeat(250) }, "Label is at most 200 characters; this one has 250."],
    ["a server name over 300 characters", { email: "ops@example.com", server_name: "z".repeat(301) }, "Server name is at most 300 characters; this one has 301."],
    ["an event kind the form does not offer", { email: "ops@example.com", events: ["security", "bogus"] }, "Events: “bogus” is not a kind the form offers; tick the ones listed."],
  ])("says what is wrong with %s in a sentence naming the form's field", async (_name, fields, message) => {
    const a = await keyedAccount(db, { credits: 100 });
    session.accountId = a.accountId;
    const sent = await createWatchAction({}, form({ server_name: "io.github.acme/weather", events: "security", ...fields }));
    expect(sent.error).toBe(message);
    expect(await db.select().from(watches)).toEqual([]);
  });

  it("says every field that is wrong, one sentence each", async () => {
    const a = await keyedAccount(db, { credits: 100 });
    session.accountId = a.accountId;
    const sent = await createWatchAction({}, form({ server_name: "io.github.acme/weather", events: "security", email: "a@b", label: "L".repeat(201) }));
    expect(sent.error).toBe("E-mail must be an address like you@example.com; “a@b” is not one. Label is at most 200 characters; this one has 201.");
  });

  it("answers a visitor whose session ended without doing anything", async () => {
    session.accountId = null;
    expect(await createWatchAction({}, form({ server_name: "io.github.acme/weather", email: "ops@example.com", events: "security" }))).toEqual({
      error: "Your session ended; sign in again.",
    });
  });
});
