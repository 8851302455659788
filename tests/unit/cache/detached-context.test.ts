import { AsyncLocalStorage } from "node:async_hooks";
import v8 from "node:v8";
import vm from "node:vm";
import { afterEach, describe, expect, it } from "vitest";
import { createDbMemo } from "@/lib/cache/db-memo";
import { installDetachedContext } from "@/lib/cache/detached-context";

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;
const SLOT = Symbol.for("mcp-preflight.detached-context");

// Next.js keeps a request's whole state (request, response, headers) in AsyncLocalStorage stores, and Node 20
// copies the stores of the current context onto every promise made in it: a memo's kept promise, made inside
// the request that asked first, kept that request alive for as long as the value was kept.
describe("values kept by a memo are computed outside the asking request's context", () => {
  const als = new AsyncLocalStorage<{ request: object }>();
  afterEach(() => {
    delete (globalThis as unknown as Record<symbol, unknown>)[SLOT];
  });

  /** Asks `memo` for `key` inside a request context; returns a weak reference to that request's state. */
  async function askWithinRequest(memo: ReturnType<typeof createDbMemo>, db: object, key: string, nowMs: number, seen: unknown[]) {
    const request = { headers: new Array(10_000).fill("x") };
    const ref = new WeakRef(request);
    await als.run({ request }, () =>
      memo.get(
        db,
        key,
        async () => {
          seen.push(als.getStore());
          await null;
          return key.length;
        },
        nowMs,
      ),
    );
    return ref;
  }

  async function collected(ref: WeakRef<object>): Promise<boolean> {
    // a WeakRef's target lives at least until the end of the current job
    await new Promise((r) => setTimeout(r, 0));
    gc();
    return ref.deref() === undefined;
  }

  it("with the detached context installed: the compute sees no request store, and the kept value does not keep the request", async () => {
    installDetachedContext();
    const memo = createDbMemo(() => 1000, 10, { staleMs: () => 1000 });
    const db = {};
    const seen: unknown[] = [];
    const first = await askWithinRequest(memo, db, "abc", 0, seen);
    expect(seen).toEqual([undefined]);
    expect(await collected(first)).toBe(true);
    // a stale entry's background recomputation too
    const second = await askWithinRequest(memo, db, "abc", 1500, seen);
    await new Promise((r) => setTimeout(r, 0));
    expect(seen).toEqual([undefined, undefined]);
    expect(await collected(second)).toBe(true);
    expect(await memo.get(db, "abc", async () => -1, 1600)).toBe(3); // still kept
  });

  it("without it (tests, scripts: nothing installed) the compute runs in the caller's context, as before", async () => {
    const memo = createDbMemo(() => 1000, 10);
    const db = {};
    const seen: { request: object }[] = [];
    const ref = await askWithinRequest(memo, db, "abc", 0, seen);
    expect(seen[0]?.request).toBe(ref.deref());
    seen.length = 0;
    // the kept promise carries the request's store: what the server no longer does
    expect(await collected(ref)).toBe(false);
    expect(await memo.get(db, "abc", async () => -1, 10)).toBe(3);
  });
});
