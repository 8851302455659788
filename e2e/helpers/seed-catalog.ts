import path from "node:path";
import { openDatabase } from "@/lib/db/client";
import { migrateDatabase } from "@/lib/db/migrate";
import { createAccount } from "@/lib/accounts/create-account";
import { createApiKey } from "@/lib/accounts/create-api-key";
import { seedPageFixture } from "@/tests/helpers/page-fixture";

/**
 * Fills the embedded database of a server that has not started yet (PGlite is one process's database: the
 * seed opens, writes and closes it before the server opens it), and returns an API key for the API side of
 * the comparisons.
 */
export async function seedCatalog(dataDir: string): Promise<{ key: string }> {
  const handle = await openDatabase(`pglite:${path.join(dataDir, "pglite")}`);
  try {
    await migrateDatabase(handle);
    await seedPageFixture(handle.db);
    const account = await createAccount({ email: "api-compare@example.test", tier: "pro" }, { db: handle.db });
    const { key } = await createApiKey(account.id, { db: handle.db });
    return { key };
  } finally {
    await handle.close();
  }
}
