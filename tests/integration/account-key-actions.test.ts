import { beforeEach, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { apiKeys } from "@/lib/db/schema";
import { resetDb } from "../helpers/db";
import { session } from "../helpers/signed-in-session";
import { keyedAccount } from "../helpers/catalog-fixture";

// The account page's revoke button (a server action) with a signed-in account, or one whose session ended
// (the session itself is next-auth's, tested in the browser test).
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));
vi.mock("@/lib/auth/current-account", () => import("../helpers/signed-in-session"));
const { revokeKeyAction } = await import("@/app/account/actions");

let db: Db;
beforeEach(async () => {
  db = await resetDb();
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
