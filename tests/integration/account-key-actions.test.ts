import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import * as React from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { createAccount } from "@/lib/accounts/create-account";
import { apiKeys, devMailbox, quotaCounters } from "@/lib/db/schema";
import { resetDb, whileInsertsRefused } from "../helpers/db";
import { session } from "../helpers/signed-in-session";
import { keyedAccount } from "../helpers/catalog-fixture";

// The account page's key forms (server actions) with a signed-in account, or one whose session ended
// (the session itself is next-auth's, tested in the browser test).
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));
vi.mock("@/lib/auth/current-account", () => import("../helpers/signed-in-session"));
const { createKeyAction, revokeKeyAction } = await import("@/app/account/actions");

// vitest compiles the page's JSX to React.createElement (Next's build uses the automatic runtime)
(globalThis as { React?: typeof React }).React = React;

let db: Db;
beforeEach(async () => {
  db = await resetDb();
  delete process.env.SMTP_URL; // the key's mail goes to the dev mailbox
  vi.spyOn(console, "log").mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
});

function form(keyId: string): FormData {
  const f = new FormData();
  f.set("keyId", keyId);
  return f;
}
const revokedAt = async (keyId: string) => (await db.select({ at: apiKeys.revokedAt }).from(apiKeys).where(eq(apiKeys.id, keyId)))[0].at;

describe("the account page's revoke action", () => {
  it("revokes the signed-in account's key, and only its own", async () => {
    const a = await keyedAccount(db);
    const b = await keyedAccount(db);
    session.accountId = a.accountId;
    await revokeKeyAction(form(b.keyId));
    expect(await revokedAt(b.keyId)).toBeNull();
    await revokeKeyAction(form(a.keyId));
    expect(await revokedAt(a.keyId)).toBeInstanceOf(Date);
  });

  it("sends a visitor whose session ended to sign in again, instead of doing nothing without a word", async () => {
    const a = await keyedAccount(db);
    session.accountId = null;
    // returning quietly left the page as it was: the key listed and live, no message, to someone revoking a leaked key
    await expect(revokeKeyAction(form(a.keyId))).rejects.toMatchObject({ digest: expect.stringContaining(";/signin?callbackUrl=/account;") });
    expect(await revokedAt(a.keyId)).toBeNull();
  });
});

describe("the account page's key names", () => {
  const named = (name?: string) => {
    const f = new FormData();
    if (name !== undefined) f.set("name", name);
    return f;
  };
  const signedIn = async (email: string) => {
    const account = await createAccount({ email }, { db });
    session.accountId = account.id;
    return account;
  };
  const keysOf = async (accountId: string) => db.select({ name: apiKeys.name, prefix: apiKeys.prefix }).from(apiKeys).where(eq(apiKeys.accountId, accountId));

  it("makes a key with the name given, trimmed, and says it; a key made without one has none", async () => {
    const a = await signedIn("names@example.test");
    const state = await createKeyAction({}, named("  deploy  bot "));
    expect(state).toMatchObject({ sentTo: "names@example.test", name: "deploy bot", prefix: expect.stringMatching(/^catk_/) });
    expect(state.error).toBeUndefined();
    expect(await createKeyAction({}, named(""))).not.toHaveProperty("name");
    expect(await createKeyAction({}, named())).not.toHaveProperty("error");
    expect((await keysOf(a.id)).map((k) => k.name).sort()).toEqual(["deploy bot", null, null].sort());
    // the mail says which key it is
    const mails = await db.select().from(devMailbox).where(eq(devMailbox.to, "names@example.test"));
    expect(mails.filter((m) => m.text.includes("“deploy bot”"))).toHaveLength(1);
  });

  it("refuses a name over 40 characters in the page's words, makes no key, sends no mail and keeps the name typed", async () => {
    const a = await signedIn("toolong@example.test");
    const typed = `  ${"x".repeat(41)}  `;
    const state = await createKeyAction({}, named(typed));
    expect(state).toEqual({ error: "Key name is at most 40 characters; this one has 41. No key was made.", name: typed });
    expect(await keysOf(a.id)).toEqual([]);
    expect(await db.$count(devMailbox)).toBe(0);
    // nothing of the hour's account mail was spent on it
    expect(await db.$count(quotaCounters)).toBe(0);
    // 40 characters with blanks around them is within the rule, which counts the name trimmed
    expect(await createKeyAction({}, named(`   ${"x".repeat(40)}   `))).toMatchObject({ name: "x".repeat(40) });
  });

  it("writes no key to the log when its mail cannot be kept (the database refuses the dev mailbox's row)", async () => {
    const a = await signedIn("lostmail@example.test");
    const logged: string[] = [];
    let state = {};
    await whileInsertsRefused(db, "dev_mailbox", async () => {
      for (const level of ["log", "error"] as const) vi.spyOn(console, level).mockImplementation((...args) => void logged.push(args.join(" ")));
      state = await createKeyAction({}, named("ci"));
    });
    expect(state).toEqual({ error: "The e-mail with the new key could not be sent, so no key was made. Try again in a few minutes.", name: "ci" });
    // the failed statement carried the mail's text, key and all: the log says why it failed, not what it held
    expect(logged.join("\n")).toContain("dev_mailbox refuses this write");
    expect(logged.join("\n")).not.toMatch(/catk_[0-9A-Za-z]{38}/);
    expect((await db.select({ revokedAt: apiKeys.revokedAt }).from(apiKeys).where(eq(apiKeys.accountId, a.id)))[0].revokedAt).not.toBeNull();
  });

  it("refuses a name holding a NUL character in words, before anything is stored", async () => {
    const a = await signedIn("nul@example.test");
    const state = await createKeyAction({}, named("ci\u0000"));
    expect(state.error).toBe("Key name must not hold a NUL character. No key was made.");
    expect(await keysOf(a.id)).toEqual([]);
  });

  it("lists each key's name in the keys table's Name column", async () => {
    const a = await signedIn("table@example.test");
    await createKeyAction({}, named("laptop"));
    await createKeyAction({}, named(""));
    const { default: AccountPage } = await import("@/app/account/page");
    const html = renderToStaticMarkup(await AccountPage());
    const table = html.slice(html.indexOf('data-testid="keys"'), html.indexOf("</table>"));
    const headers = [...table.matchAll(/<th scope="col">(.*?)<\/th>/g)].map((m) => m[1].replace(/<[^>]+>/g, ""));
    expect(headers).toEqual(["Key", "Name", "Created", "Last used", "Actions"]);
    const cells = [...table.matchAll(/data-testid="key-name">(.*?)<\/td>/g)].map((m) => m[1].replace(/<[^>]+>/g, ""));
    expect(cells.sort()).toEqual(["laptop", "none"]);
    expect((await keysOf(a.id)).length).toBe(2);
  });
});
