import type { ZodType } from "zod";
import { postToLocalServer } from "./local-server";
import { oneLine } from "./one-line";
export { parseArgsOrExit } from "./parse-args-or-exit";
import { assertUsableEnvironment } from "@/lib/config";
import { DatabaseInUseError, driverFor, openDatabase, type Db } from "@/lib/db/client";
import { migrateDatabase } from "@/lib/db/migrate";
import { errorMessage } from "@/lib/db/query-error";

/** Runs `work` on this process's own connection to DATABASE_URL (migrated first), then closes it. */
export async function withOwnDatabase<T>(work: (db: Db) => Promise<T>): Promise<T> {
  // an in-memory database is this process's alone: the job's work would end with it, while it reported success
  const { kind, target } = driverFor(process.env.DATABASE_URL);
  if (kind === "pglite" && target.startsWith("memory")) {
    throw new Error("DATABASE_URL=pglite:memory is a database of one process, which ends with this job: point DATABASE_URL at the server's database (pglite:<dir> or postgres://…)");
  }
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
    // the job reads the server's settings (DATABASE_POOL_MAX, the harvest's budgets and timeouts, …)
    assertUsableEnvironment();
    if (!(await viaServer())) await here().catch(async (err: unknown) => {
      // `npm start`, then at once `npm run ingest`: the job looked for the server before it had started, and by
      // the time the job opened PGlite the server held it. The server writes its file before it takes the lock
      // (lib/boot/boot.ts), so it can be found now; the job's open failed before any work, so the work is handed over
      if (!(err instanceof DatabaseInUseError) || !(await viaServer())) throw err;
    });
  } catch (err) {
    onFailure?.();
    console.error(err instanceof DatabaseInUseError ? `${err.message}; start it or stop it, then run this again` : `${name} failed: ${oneLine(errorMessage(err))}`);
    process.exit(1);
  }
}

/**
 * An operator job over one service (`key:create`, `account:watch-limit`): its admin route on the running server
 * when that server holds the embedded database, else the service on this process's own connection; a failure
 * is one line and exit 1 (runJob).
 */
export async function runAdminJob<I, T>(name: string, route: string, input: I, service: (db: Db, input: I) => Promise<T>): Promise<T> {
  let result: T | undefined;
  await runJob(
    name,
    async () => {
      const answer = await postToLocalServer<T>(route, input);
      if (answer !== false) result = answer;
      return answer !== false;
    },
    async () => {
      result = await withOwnDatabase((db) => service(db, input));
    },
  );
  return result as T;
}

/** A job's arguments checked by `schema`; exit 2 with one line naming each bad argument. */
export function argumentsOrExit<T>(schema: ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  console.error(`invalid arguments: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  process.exit(2);
}

