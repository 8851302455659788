import { desc, eq } from "drizzle-orm";
import { getDb, type Queryable } from "@/lib/db/client";
import { apiKeys } from "@/lib/db/schema";

export interface ApiKeySummary {
  keyId: string;
  prefix: string;
  /** What the account holder called the key, or null. */
  name: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** An account's keys for the account page: never the key, never the hash. */
export async function listApiKeys(accountId: string, opts: { db?: Queryable } = {}): Promise<ApiKeySummary[]> {
  const db = opts.db ?? (await getDb());
  return db
    .select({
      keyId: apiKeys.id,
      prefix: apiKeys.prefix,
      name: apiKeys.name,
      createdAt: apiKeys.createdAt,
      lastUsedAt: apiKeys.lastUsedAt,
      revokedAt: apiKeys.revokedAt,
    })
    .from(apiKeys)
    .where(eq(apiKeys.accountId, accountId))
    .orderBy(desc(apiKeys.createdAt));
}
