import { AsyncResource } from "node:async_hooks";

// A promise remembers the async context it was made in: Node 20's AsyncLocalStorage copies every store of the
// current context onto each new promise, and Next.js keeps the request's whole state in such stores (the
// request, the response and its headers, the after() callbacks, the render options). A value a memo keeps for
// half a minute, computed inside a request, therefore kept that request alive with it: a heap snapshot under
// search load held 469 responses, and 13 once kept values were computed here instead, in a context made once at
// start, outside any request (docs/search-and-cards.md, fourteenth session).

const SLOT = Symbol.for("mcp-preflight.detached-context");
type Slot = Record<symbol, AsyncResource | undefined>;

/**
 * Makes the context kept values are computed in. Call it once when the process starts, before any request
 * (instrumentation's register): made inside a request, it would carry that request's stores itself.
 */
export function installDetachedContext(): void {
  (globalThis as unknown as Slot)[SLOT] ??= new AsyncResource("mcp-preflight.kept-value");
}

/** fn() run in the detached context (as is where none was installed: tests, scripts), its promises with it. */
export function runDetached<T>(fn: () => T): T {
  const context = (globalThis as unknown as Slot)[SLOT];
  return context ? context.runInAsyncScope(fn) : fn();
}
