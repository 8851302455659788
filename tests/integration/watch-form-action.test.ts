import dns from "node:dns/promises";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { accounts, creditWallets, watches } from "@/lib/db/schema";
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
afterEach(() => {
  vi.restoreAllMocks();
  process.env.OUTBOUND_ALLOW_HOSTS = "127.0.0.1";
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

  // the service's refusals came through as the API's Error message, written for programs: "webhook_url is refused:
  // 10.1.2.3 is not a public address; webhooks are sent to public addresses only", "no server named \"x\" in the
  // catalog (…)", "this account has 5 active watches, … (DELETE /v1/watch?id=…, or the catalog_watch_unsubscribe tool)"
  it.each([
    ["a private address", "https://10.1.2.3/hook", "Webhook URL points at 10.1.2.3, a private or loopback address: give a host name or address on the public internet."],
    ["a loopback IPv6 address", "https://[::1]:8443/hook", "Webhook URL points at ::1, a private or loopback address: give a host name or address on the public internet."],
    ["localhost", "https://localhost/hook", "Webhook URL names “localhost”, which is this machine itself: give a host name on the public internet."],
    ["a user name and password", "https://user:pw@hooks.example.com/x", "Webhook URL must not hold a user name or password (the part before @): take it out. Each delivery is signed with the watch's secret instead."],
    ["a port fetch never connects to", "https://93.184.215.14:587/hook", "Webhook URL port 587 is one HTTP clients never connect to (it belongs to mail, chat and the like): use another port, or none for 443."],
    ["a name DNS has no address for", "https://./hook", "Webhook URL host “.” has no address in DNS: check how it is spelled."],
  ])("says what to change about a webhook URL at %s, and spends nothing", async (_what, url, message) => {
    process.env.OUTBOUND_ALLOW_HOSTS = "";
    const a = await keyedAccount(db, { credits: 100 });
    session.accountId = a.accountId;
    const sent = await createWatchAction({}, form({ server_name: "io.github.acme/weather", webhook_url: url, events: "security" }));
    expect(sent.error).toBe(message);
    expect(sent.values!.webhook_url).toBe(url);
    expect(await db.select().from(watches)).toEqual([]);
    expect(await walletRemaining(db, a.accountId)).toBe(100);
  });

  it("says which address a webhook host resolves to when it is a private one, and when DNS has none", async () => {
    process.env.OUTBOUND_ALLOW_HOSTS = "";
    vi.spyOn(dns, "lookup").mockImplementation((async (host: string) => {
      if (host === "hooks.internal.example") return [{ address: "93.184.215.14", family: 4 }, { address: "10.0.0.7", family: 4 }];
      if (host === "gone.example") throw Object.assign(new Error("getaddrinfo ENOTFOUND gone.example"), { code: "ENOTFOUND" });
      throw new Error(`unexpected lookup ${host}`);
    }) as never);
    const a = await keyedAccount(db, { credits: 100 });
    session.accountId = a.accountId;
    const send = (webhook_url: string) => createWatchAction({}, form({ server_name: "io.github.acme/weather", webhook_url, events: "security" }));
    expect((await send("https://hooks.internal.example/x")).error).toBe(
      "Webhook URL host “hooks.internal.example” resolves to 10.0.0.7, a private address: give a host that resolves to public addresses only.",
    );
    expect((await send("https://gone.example/x")).error).toBe("Webhook URL host “gone.example” has no address in DNS: check how it is spelled.");
  });

  it("says the catalog has no server of the name given", async () => {
    const a = await keyedAccount(db, { credits: 100 });
    session.accountId = a.accountId;
    const sent = await createWatchAction({}, form({ server_name: "io.github.acme/Weather", email: "ops@example.com", events: "security" }));
    expect(sent.error).toBe("We have no server named “io.github.acme/Weather”. Names are exact and case-sensitive: copy it from the server's page, such as io.github.owner/name.");
  });

  it("says the account's watch limit, its tier's or the one granted to it, with the number", async () => {
    const a = await keyedAccount(db, { credits: 1000 });
    session.accountId = a.accountId;
    const send = (email: string) => createWatchAction({}, form({ server_name: "io.github.acme/weather", email, events: "security" }));
    for (let i = 0; i < 5; i++) expect((await send(`n${i}@example.test`)).created).toBe(true);
    expect((await send("n5@example.test")).error).toBe("This account has reached its limit of 5 active watches, the most a registered account may have. Delete one below to make room, or ask for more.");
    await db.update(accounts).set({ watchLimit: 3 }).where(eq(accounts.id, a.accountId));
    expect((await send("n5@example.test")).error).toBe("This account has 5 active watches, over its limit of 3 (a limit granted to it). Delete one below to make room, or ask for more.");
  });

  it("says the credits do not cover a new watch, and its price", async () => {
    const a = await keyedAccount(db, { credits: 5 });
    session.accountId = a.accountId;
    const sent = await createWatchAction({}, form({ server_name: "io.github.acme/weather", email: "ops@example.com", events: "security" }));
    expect(sent.error).toBe("Your credits do not cover a new watch (10 credits). The wallet refills on the first day of the next UTC month.");
    expect(await db.select().from(watches)).toEqual([]);
  });
});
