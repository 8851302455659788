import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { accounts } from "@/lib/db/schema";
import { authBaseUrl } from "@/lib/auth/auth-options";
import { sendMail } from "@/lib/auth/send-mail";

/**
 * The "lost key" notice (contract Authentication 5): keys are stored only as
 * hashes, so the notice cannot contain the key; it explains that and links to
 * the account page to create a new one and revoke the lost one.
 */
export async function sendLostKeyNotice(accountId: string): Promise<{ to: string }> {
  const db = await getDb();
  const [account] = await db.select().from(accounts).where(eq(accounts.id, accountId));
  if (!account) throw new Error("no such account");
  const url = `${authBaseUrl()}/account#create-key`;
  await sendMail({
    to: account.email,
    subject: "About your lost mcp-preflight API key",
    text: [
      "You asked for a lost API key.",
      "",
      "mcp-preflight keeps only a one-way hash of each key, so nobody, not even us, can show or send a key again after it was created.",
      "Create a new key on your account page and revoke the one you lost (revoking stops it at once):",
      "",
      url,
      "",
      "Your credits belong to the account, not to the key, so a new key keeps them.",
    ].join("\n"),
    url,
  });
  return { to: account.email };
}
