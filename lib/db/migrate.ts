import path from "node:path";
import type { DbHandle } from "./client";
import { driverFor } from "./client";

export function migrationsFolder(): string {
  return process.env.MIGRATIONS_DIR || path.join(process.cwd(), "drizzle");
}

// Arbitrary constant: serialises concurrent migrators (several server instances starting at once).
const MIGRATION_LOCK_KEY = 7_301_990_447;

/** Applies the drizzle-kit SQL migrations in drizzle/ that this database has not seen. */
export async function migrateDatabase(handle: DbHandle, url = process.env.DATABASE_URL): Promise<void> {
  const migrationsFolderPath = migrationsFolder();
  if (handle.kind === "pglite") {
    const { migrate } = await import("drizzle-orm/pglite/migrator");
    await migrate(handle.db as never, { migrationsFolder: migrationsFolderPath });
    return;
  }
  // A session-level advisory lock needs one connection for the whole run, so the
  // migration runs on a dedicated client rather than on the pool.
  const { target } = driverFor(url);
  if (handle.kind === "neon") {
    const { Client } = await import("@neondatabase/serverless");
    const { drizzle } = await import("drizzle-orm/neon-serverless");
    const { migrate } = await import("drizzle-orm/neon-serverless/migrator");
    const client = new Client({ connectionString: target });
    await client.connect();
    try {
      await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
      await migrate(drizzle(client), { migrationsFolder: migrationsFolderPath });
    } finally {
      await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]).catch(() => {});
      await client.end();
    }
    return;
  }
  const pg = await import("pg");
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const { migrate } = await import("drizzle-orm/node-postgres/migrator");
  const client = new pg.default.Client({ connectionString: target });
  await client.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    await migrate(drizzle(client), { migrationsFolder: migrationsFolderPath });
  } finally {
    await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]).catch(() => {});
    await client.end();
  }
}
