import { eq } from "drizzle-orm";
import { getDb, type Queryable } from "@/lib/db/client";
import { accounts } from "@/lib/db/schema";
import { authBaseUrl } from "@/lib/auth/auth-options";
import { sendMail } from "@/lib/auth/send-mail";
import { takeAccountMail, TOO_MUCH_MAIL } from "@/lib/auth/mail-allowance";
import { ApiError } from "@/lib/api/errors";
import { parseWith } from "@/lib/api/request";
import { newApiKeyInputSchema } from "@/lib/schemas/api-key";
import { assertRoomForKey, createApiKey } from "./create-api-key";
import { revokeApiKey } from "./revoke-api-key";

/** Why the account page made a key: asked for one, or lost one. */
export type NewKeyReason = "created" | "lost";

/**
 * Makes a key on the account page's behalf and sends it to the account's address, the only place its value
 * appears (contract Authentication 5: the key is hidden from web pages; a lost key is sent to the account
 * e-mail). Keys are kept only as hashes, so a lost key cannot be sent again: "I lost a key" gets a new one,
 * and since the account cannot say which key it lost, none is revoked here; the mail says to revoke it. A key
 * whose mail could not be sent is revoked at once (nobody received it) and the failure is thrown. A name the
 * key may not have is refused (400) before anything is counted or sent.
 */
export async function mailNewKey(
  accountId: string,
  reason: NewKeyReason,
  opts: { db?: Queryable; name?: string | null } = {},
): Promise<{ to: string; prefix: string; name: string | null }> {
  const { name } = parseWith(newApiKeyInputSchema, { name: opts.name });
  const db = opts.db ?? (await getDb());
  const [account] = await db.select().from(accounts).where(eq(accounts.id, accountId));
  if (!account) throw new Error("no such account");
  // a key refused for the account's limit sends no mail: it must not use up one of the hour's account mails,
  // which the next sign-in link needs too (createApiKey checks again under the account's lock)
  await assertRoomForKey(db, account.id);
  if (!(await takeAccountMail(account.email, { db }))) throw new ApiError("rate_limited", TOO_MUCH_MAIL);
  const created = await createApiKey(account.id, { db, name });
  const url = `${authBaseUrl()}/account`;
  try {
    await sendMail({ to: account.email, url, ...keyMail(reason, created, url) });
  } catch (err) {
    await revokeApiKey(account.id, created.keyId, { db }).catch(() => {});
    throw err;
  }
  return { to: account.email, prefix: created.prefix, name: created.name };
}

function keyMail(reason: NewKeyReason, { key, prefix, name }: { key: string; prefix: string; name: string | null }, url: string): { subject: string; text: string } {
  const opening =
    reason === "lost"
      ? "You said you lost an API key. mcp-preflight keeps only a one-way hash of each key, so a lost key cannot be sent again; here is a new one:"
      : "Here is the API key you created on your mcp-preflight account page. We keep only a one-way hash of it, so this e-mail is the only place it appears:";
  const revoke =
    reason === "lost"
      ? ["Revoke the key you lost on your account page (the list shows each key's first characters and when it was last used):"]
      : ["Your account page lists your keys by their first characters, with when each was last used:"];
  return {
    subject: reason === "lost" ? "Your new mcp-preflight API key" : "Your mcp-preflight API key",
    text: [
      opening,
      "",
      key,
      ...(name ? [`(named “${name}” on your account page)`] : []),
      "",
      "Send it in the x-api-key header. Your credits belong to the account, so every key of it has them.",
      ...revoke,
      "",
      url,
      "",
      `If you did not ask for this, revoke this key (${prefix}…) there.`,
    ].join("\n"),
  };
}
