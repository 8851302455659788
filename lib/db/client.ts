import fs from "node:fs";
import path from "node:path";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { dataDir } from "@/lib/config";
import * as schema from "./schema";
import { pidMayHaveWritten } from "@/lib/boot/pid-alive";
import { log } from "@/lib/log";
import { errorMessage } from "./query-error";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** Anything that can run a query: the database or an open transaction. */
export type Queryable = Db | Tx;

export type DriverKind = "pglite" | "node-postgres" | "neon";

export interface DbHandle {
  db: Db;
  kind: DriverKind;
  /** Where the data lives, for log lines (never contains a password). */
  location: string;
  close(): Promise<void>;
}

export class DatabaseInUseError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(`the embedded database in ${dir} is open in process ${pid}`);
  }
}

/**
 * DATABASE_URL decides the driver (DESIGN §2):
 *   unset | pglite:<dir> | pglite:memory  → embedded PGlite
 *   postgres://… on a Neon host           → @neondatabase/serverless
 *   postgres://… | postgresql://…         → node-postgres pool
 */
export function driverFor(url: string | undefined): { kind: DriverKind; target: string } {
  if (!url || url.startsWith("pglite:")) {
    const target = url ? url.slice("pglite:".length).replace(/^\/\//, "") : path.join(dataDir(), "pglite");
    return { kind: "pglite", target: target || path.join(dataDir(), "pglite") };
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    const host = new URL(url).hostname;
    const neon = process.env.DATABASE_DRIVER === "neon" || /(^|\.)neon\.tech$/.test(host);
    return { kind: neon ? "neon" : "node-postgres", target: url };
  }
  throw new Error(`DATABASE_URL must start with postgres://, postgresql:// or pglite: (got ${url.split(":")[0]}:…)`);
}

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(unparseable url)";
  }
}

/**
 * The process holding the embedded database in `dir` (the pid in its lock file), or null when none does: no
 * lock, or its pid is no longer the process that wrote it (ended, or a crashed holder's pid reused by a process
 * started since: a container restarting brings the same pids back).
 */
export function pgliteLockHolder(dir: string): number | null {
  const lock = `${path.resolve(dir)}.lock`;
  try {
    const pid = Number(fs.readFileSync(lock, "utf8").trim());
    return pid && pidMayHaveWritten(pid, fs.statSync(lock).mtimeMs) ? pid : null;
  } catch {
    return null;
  }
}

/**
 * PGlite is one process's database: opening its directory twice corrupts it.
 * A pid file beside it makes a second opener fail loudly instead.
 */
function lockPgliteDir(dir: string): () => void {
  const lock = `${dir}.lock`;
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  const holder = pgliteLockHolder(dir);
  if (holder !== null && holder !== process.pid) throw new DatabaseInUseError(dir, holder);
  fs.writeFileSync(lock, String(process.pid));
  return () => {
    try {
      if (fs.readFileSync(lock, "utf8").trim() === String(process.pid)) fs.unlinkSync(lock);
    } catch {
      /* already gone */
    }
  };
}

/**
 * A pooled connection that dies (the server restarted or failed over, an administrator ended it, an idle timeout)
 * says so with an 'error' event: of the pool while the connection is idle, of the connection itself while it is
 * checked out (a transaction's, after its statement has already failed with the reason). Unheard, either is an
 * uncaught exception, which ends a command-line job and which Next.js logs as one. The pool drops the connection;
 * the next query opens another.
 */
function listenForClosedConnections(pool: {
  on(event: "error", listener: (err: Error) => void): unknown;
  on(event: "connect", listener: (client: { on(event: "error", listener: (err: Error) => void): unknown }) => void): unknown;
}): void {
  pool.on("connect", (client) =>
    client.on("error", (err) => log.warn("a database connection was closed; the next query opens another", { error: errorMessage(err) })),
  );
  // the same event, passed on by the pool for an idle connection: logged above
  pool.on("error", () => undefined);
}

export async function openDatabase(url = process.env.DATABASE_URL): Promise<DbHandle> {
  const { kind, target } = driverFor(url);
  if (kind === "pglite") {
    const { PGlite } = await import("@electric-sql/pglite");
    const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
    const { drizzle } = await import("drizzle-orm/pglite");
    const memory = target === "memory" || target.startsWith("memory");
    const unlock = memory ? () => {} : lockPgliteDir(path.resolve(target));
    if (!memory) fs.mkdirSync(target, { recursive: true });
    // PGLITE_MEMORY_IMAGE: a data directory saved by PGlite's dumpDataDir that an in-memory database starts
    // from, instead of creating a cluster (initdb, about 3.5 s in WASM): the tests start every file's database
    // from one image migrated once per run (tests/helpers/pglite-image.ts).
    const image = memory && process.env.PGLITE_MEMORY_IMAGE ? new Blob([fs.readFileSync(process.env.PGLITE_MEMORY_IMAGE)]) : undefined;
    const client = memory
      ? await PGlite.create({ extensions: { pg_trgm }, ...(image && { loadDataDir: image }) })
      : await PGlite.create(target, { extensions: { pg_trgm } });
    const db = drizzle(client, { schema }) as unknown as Db;
    return {
      db,
      kind,
      location: memory ? "PGlite (in memory)" : `PGlite at ${path.resolve(target)}`,
      async close() {
        await client.close();
        unlock();
      },
    };
  }
  if (kind === "neon") {
    const { Pool, neonConfig } = await import("@neondatabase/serverless");
    const { drizzle } = await import("drizzle-orm/neon-serverless");
    // Node 22 has a global WebSocket; Node 20, which package.json's engines accept (and on which an operator runs
    // `npm run db:migrate` of the Vercel steps), has none, and every connection failed ("All attempts to open a
    // WebSocket … failed"). undici, already a dependency, is where Node's own comes from.
    neonConfig.webSocketConstructor ??= typeof WebSocket !== "undefined" ? WebSocket : (await import("undici")).WebSocket;
    const pool = new Pool({ connectionString: target });
    listenForClosedConnections(pool);
    const db = drizzle(pool, { schema }) as unknown as Db;
    return { db, kind, location: `Neon ${redact(target)}`, close: () => pool.end() };
  }
  const pg = await import("pg");
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const pool = new pg.default.Pool({ connectionString: target, max: Number(process.env.DATABASE_POOL_MAX || 10) });
  listenForClosedConnections(pool);
  const db = drizzle(pool, { schema }) as unknown as Db;
  return { db, kind, location: `Postgres ${redact(target)}`, close: () => pool.end() };
}

// One handle per process; kept on globalThis so Next's dev reloads do not open PGlite twice.
const GLOBAL_KEY = Symbol.for("mcp-preflight.db");
type GlobalSlot = { promise?: Promise<DbHandle> };
function slot(): GlobalSlot {
  const g = globalThis as unknown as Record<symbol, GlobalSlot>;
  return (g[GLOBAL_KEY] ??= {});
}

/** The process-wide database, opened and migrated on first use. */
export function getDbHandle(): Promise<DbHandle> {
  const s = slot();
  if (!s.promise) {
    s.promise = (async () => {
      const handle = await openDatabase();
      const { migrateDatabase } = await import("./migrate");
      await migrateDatabase(handle);
      return handle;
    })();
    s.promise.catch(() => {
      s.promise = undefined;
    });
  }
  return s.promise;
}

export async function getDb(): Promise<Db> {
  return (await getDbHandle()).db;
}

/** Closes the process-wide handle (tests, CLI scripts). */
export async function closeDb(): Promise<void> {
  const s = slot();
  const p = s.promise;
  s.promise = undefined;
  if (p) await (await p).close();
}
