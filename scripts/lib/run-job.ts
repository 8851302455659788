import { DatabaseInUseError, openDatabase, type Db } from "@/lib/db/client";
import { migrateDatabase } from "@/lib/db/migrate";

/** Runs `work` on this process's own connection to DATABASE_URL (migrated first), then closes it. */
export async function withOwnDatabase<T>(work: (db: Db) => Promise<T>): Promise<T> {
  const handle = await openDatabase();
  try {
    await migrateDatabase(handle);
    return await work(handle.db);
  } finally {
    await handle.close();
  }
}

/**
 * The shape of every job script: hand the work to the running server when it
 * holds the embedded database (`viaServer` returns false when none does),
 * otherwise do it here; failures print one line and exit 1.
 */
export async function runJob(name: string, viaServer: () => Promise<boolean>, here: () => Promise<void>, onFailure?: () => void): Promise<void> {
  try {
    if (!(await viaServer())) await here();
  } catch (err) {
    onFailure?.();
    console.error(err instanceof DatabaseInUseError ? `${err.message}; start it or stop it, then run this again` : `${name} failed: ${(err as Error).message}`);
    process.exit(1);
  }
}
