import { eq } from "drizzle-orm";
import { getDb, type Queryable } from "@/lib/db/client";
import { accounts } from "@/lib/db/schema";
import { authBaseUrl } from "@/lib/auth/auth-options";
import { sendMail } from "@/lib/auth/send-mail";
import { takeAccountMail, TOO_MUCH_MAIL } from "@/lib/auth/mail-allowance";
import { ApiError } from "@/lib/api/errors";
import { createApiKey } from "./create-api-key";
import { revokeApiKey } from "./revoke-api-key";

/**
 * "I lost a key" (contract Authentication 5: a lost key is sent to the account e-mail). Keys are kept only as
 * hashes, so the lost one cannot be sent again: a new key is created and sent to the account's address, the
 * only place its value appears. The account cannot say which key it lost, so none is revoked here; the mail
 * and the page say to revoke it. A key whose mail could not be sent is revoked at once (nobody received it),
 * and the failure is thrown to the caller.
 */
export async function sendReplacementKey(accountId: string, opts: { db?: Queryable } = {}): Promise<{ to: string; prefix: string }> {
  const db = opts.db ?? (await getDb());
  const [account] = await db.select().from(accounts).where(eq(accounts.id, accountId));
  if (!account) throw new Error("no such account");
  if (!(await takeAccountMail(account.email, { db }))) throw new ApiError("rate_limited", TOO_MUCH_MAIL);
  const created = await createApiKey(account.id, { db });
  const url = `${authBaseUrl()}/account`;
  try {
    await sendMail({
      to: account.email,
      subject: "Your new mcp-preflight API key",
      text: [
        "You said you lost an API key. mcp-preflight keeps only a one-way hash of each key, so a lost key cannot be sent again; here is a new one:",
        "",
        created.key,
        "",
        "Send it in the x-api-key header. Your credits belong to the account, so the new key has them too.",
        `Revoke the key you lost on your account page (the list shows each key's first characters and when it was last used):`,
        "",
        url,
        "",
        `If you did not ask for this, revoke the new key (${created.prefix}…) there.`,
      ].join("\n"),
      url,
    });
  } catch (err) {
    await revokeApiKey(account.id, created.keyId, { db }).catch(() => {});
    throw err;
  }
  return { to: account.email, prefix: created.prefix };
}
