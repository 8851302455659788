// `npm run db:migrate`: apply drizzle/ migrations to DATABASE_URL (or the embedded database).
import { openDatabase } from "@/lib/db/client";
import { migrateDatabase } from "@/lib/db/migrate";

const handle = await openDatabase();
try {
  await migrateDatabase(handle);
  console.log(`migrations applied: ${handle.location}`);
} finally {
  await handle.close();
}
