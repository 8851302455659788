import { and, eq, isNull } from "drizzle-orm";
import { getDb, type Queryable } from "@/lib/db/client";
import { apiKeys } from "@/lib/db/schema";

/**
 * Revokes one key of one account (the account id scopes it, so nobody revokes
 * another account's key). Returns false when no such live key exists.
 * Takes effect on the next request: keys are looked up on every call, not cached.
 */
export async function revokeApiKey(
  accountId: string,
  keyId: string,
  opts: { db?: Queryable; now?: Date } = {},
): Promise<boolean> {
  const db = opts.db ?? (await getDb());
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: opts.now ?? new Date() })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return rows.length === 1;
}
