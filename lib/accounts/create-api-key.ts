import { and, count, eq, isNull } from "drizzle-orm";
import { ApiError } from "@/lib/api/errors";
import { MAX_API_KEYS_PER_ACCOUNT } from "@/lib/config";
import { getDb, type Queryable } from "@/lib/db/client";
import { accounts, apiKeys } from "@/lib/db/schema";
import { parseWith } from "@/lib/api/request";
import { newApiKeyInputSchema } from "@/lib/schemas/api-key";
import { apiKeyPrefix, generateApiKey, hashApiKey } from "./api-key-format";
import { newId } from "./new-id";

export interface CreatedApiKey {
  /** The plaintext key: returned here once and never stored or shown again. */
  key: string;
  keyId: string;
  prefix: string;
  /** The name as kept (normalised), or null. */
  name: string | null;
  createdAt: Date;
}

/** 400 when the account already holds MAX_API_KEYS_PER_ACCOUNT live keys. */
export async function assertRoomForKey(db: Queryable, accountId: string): Promise<void> {
  const [{ live }] = await db
    .select({ live: count() })
    .from(apiKeys)
    .where(and(eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)));
  if (live >= MAX_API_KEYS_PER_ACCOUNT) {
    throw new ApiError("invalid_request", `an account holds at most ${MAX_API_KEYS_PER_ACCOUNT} live keys; revoke one first`);
  }
}

/**
 * Creates a key for an account; only its SHA-256, visible prefix and optional name are stored. A name over the
 * limit is a 400 whose issues name the `name` field (the account page says it in its own words).
 */
export async function createApiKey(accountId: string, opts: { db?: Queryable; name?: string | null } = {}): Promise<CreatedApiKey> {
  const { name } = parseWith(newApiKeyInputSchema, { name: opts.name });
  const db = opts.db ?? (await getDb());
  return db.transaction(async (tx) => {
    // One account's key creations run one at a time (the account row's lock): a count taken outside a lock let
    // keys made at once each see room and all be stored, past the limit.
    await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for("update");
    await assertRoomForKey(tx, accountId);
    const key = generateApiKey();
    const keyId = newId("key");
    const prefix = apiKeyPrefix(key);
    const [row] = await tx
      .insert(apiKeys)
      .values({ id: keyId, accountId, prefix, hash: hashApiKey(key), name })
      .returning({ createdAt: apiKeys.createdAt });
    return { key, keyId, prefix, name, createdAt: row.createdAt };
  });
}
