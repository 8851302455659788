// `npm run db:migrate`: apply drizzle/ migrations to DATABASE_URL (or the embedded database).
import { assertUsableEnvironment } from "@/lib/config";
import { DatabaseInUseError, openDatabase } from "@/lib/db/client";
import { migrateDatabase } from "@/lib/db/migrate";
import { parseArgsOrExit } from "./lib/run-job";

// no options: an argument it would ignore (`--dry-run`) must not migrate
const { values } = parseArgsOrExit({ options: { help: { type: "boolean", short: "h" } } });
if (values.help) {
  console.log("usage: npm run db:migrate   (applies drizzle/ to DATABASE_URL, or the embedded database in DATA_DIR)");
  process.exit(0);
}

try {
  assertUsableEnvironment();
  const handle = await openDatabase();
  try {
    await migrateDatabase(handle);
    console.log(`migrations applied: ${handle.location}`);
  } finally {
    await handle.close();
  }
} catch (err) {
  // the common case is `npm start` running on the embedded database: it migrated it when it started, and
  // PGlite must not be opened twice, so say that in one line instead of a stack trace
  console.error(
    err instanceof DatabaseInUseError
      ? `db:migrate: ${err.message}; a server migrates its database when it starts: stop it to migrate here`
      : `db:migrate failed: ${(err as Error).message}`,
  );
  process.exit(1);
}
