import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { accounts } from "@/lib/db/schema";

/**
 * A stand-in for `@/lib/auth/current-account` (next-auth's session is tested in the browser tests): the account
 * `session.accountId` names, or none (signed out, or a session that ended). A test file mocks the module with
 * `vi.mock("@/lib/auth/current-account", () => import("../helpers/signed-in-session"))` and sets `session`.
 */
export const session = { accountId: null as string | null };

export async function currentAccount() {
  if (!session.accountId) return null;
  const [row] = await (await getDb()).select().from(accounts).where(eq(accounts.id, session.accountId));
  return row ?? null;
}
