import type { PGlite } from "@electric-sql/pglite";

const TURNS = Symbol.for("mcp-preflight.tests.pglite-turns-event-loop");

/**
 * Lets every PGlite query wait for one turn of the event loop, as a query to the Postgres server does (its answer
 * is read from a socket). PGlite answers in-process, on promises alone: a test file whose awaits are all PGlite
 * queries and in-process route handlers ran for minutes on a loaded machine without the worker ever reading its
 * IPC channel. Vitest's worker gives each call to the main process 60 s (a fixed limit in vitest 3), and
 * Node runs expired timers before it reads sockets: the answer to the worker's "onTaskUpdate", long since arrived,
 * was read after its timeout had fired, and the run failed with `Error: [vitest-worker]: Timeout calling
 * "onTaskUpdate"` although every test passed.
 */
export async function letPgliteQueriesTurnTheEventLoop(): Promise<void> {
  type Proto = { _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>; [TURNS]?: true };
  // every query and statement, in a transaction or not, runs through this one method
  const proto = (await import("@electric-sql/pglite")).PGlite.prototype as unknown as Proto;
  if (proto[TURNS]) return; // files share a worker's modules (vitest.config.ts): patched once per worker
  proto[TURNS] = true;
  const runExclusiveQuery = proto._runExclusiveQuery;
  // the real one, kept before any test fakes timers: a faked setImmediate would never fire
  const turn = globalThis.setImmediate;
  proto._runExclusiveQuery = async function <T>(this: PGlite, fn: () => Promise<T>): Promise<T> {
    await new Promise<void>((resolve) => turn(() => resolve()));
    return runExclusiveQuery.call(this, fn) as Promise<T>;
  };
}
