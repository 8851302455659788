import { eq, sql } from "drizzle-orm";
import { openDatabase } from "@/lib/db/client";
import { migrateDatabase } from "@/lib/db/migrate";
import { readDumpFile } from "@/lib/catalog/read-dump";
import { ingestDump } from "@/lib/catalog/ingest-dump";
import { createAccount } from "@/lib/accounts/create-account";
import { createApiKey } from "@/lib/accounts/create-api-key";
import { creditWallets, servers } from "@/lib/db/schema";

/**
 * A bench database: the snapshot ingested, `keyCount` pro keys (one account each) with credits to spare,
 * and the listed names to query. Returns after closing its own connection.
 */
export async function prepareBenchCatalog(url: string, snapshot: string, names = 200, keyCount = 1) {
  const handle = await openDatabase(url);
  try {
    await migrateDatabase(handle, url);
    await ingestDump(handle.db, await readDumpFile(snapshot), snapshot);
    await handle.db.execute(sql`analyze`);
    const keys: string[] = [];
    for (let i = 0; i < keyCount; i++) {
      const account = await createAccount({ email: `bench${i}@bench.example`, tier: "pro" }, { db: handle.db });
      await handle.db.update(creditWallets).set({ purchasedRemaining: 10_000_000 }).where(eq(creditWallets.accountId, account.id));
      keys.push((await createApiKey(account.id, { db: handle.db })).key);
    }
    const rows = await handle.db.select({ name: servers.name }).from(servers).orderBy(servers.name).limit(names);
    return { key: keys[0], keys, names: rows.map((r) => r.name) };
  } finally {
    await handle.close();
  }
}

/** Burst limits out of the way: a bench measures the request path, not the limiter refusing it. */
export const UNLIMITED_BURSTS = { BURST_LIMIT_PER_KEY: "1000000000", BURST_LIMIT_PER_ANONYMOUS_IP: "1000000000" };
