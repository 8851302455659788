import { describe, expect, it } from "vitest";
import { clearDbMemos, createDbMemo, noteCatalogWrite } from "@/lib/cache/db-memo";

describe("createDbMemo", () => {
  it("shares one computation per key within the TTL and recomputes after it", async () => {
    let calls = 0;
    const memo = createDbMemo(() => 1000, 10);
    const db = {};
    const compute = async () => ++calls;
    expect(await memo.get(db, "a", compute, 0)).toBe(1);
    expect(await memo.get(db, "a", compute, 999)).toBe(1);
    expect(await memo.get(db, "a", compute, 1000)).toBe(2);
    expect(await memo.get({}, "a", compute, 1000)).toBe(3); // another database, another memo
  });

  it("recomputes after a catalog write to the same database, clears a database, and never keeps a failure", async () => {
    let calls = 0;
    const memo = createDbMemo(() => 60_000, 10);
    const db = {};
    const other = {};
    const compute = async () => ++calls;
    await memo.get(db, "a", compute, 0);
    await memo.get(other, "a", compute, 0);
    noteCatalogWrite(db);
    expect(await memo.get(db, "a", compute, 1)).toBe(3);
    expect(await memo.get(db, "a", compute, 1)).toBe(3); // computed after the write: kept again
    expect(await memo.get(other, "a", compute, 1)).toBe(2); // another database's entries stay
    clearDbMemos(db);
    expect(await memo.get(db, "a", compute, 2)).toBe(4);
    await expect(memo.get(db, "b", async () => Promise.reject(new Error("down")), 3)).rejects.toThrow("down");
    await new Promise((r) => setTimeout(r, 0));
    expect(await memo.get(db, "b", compute, 4)).toBe(5);
  });

  it("keeps at most maxEntries, dropping the least recently used, and is off at TTL 0", async () => {
    const memo = createDbMemo(() => 60_000, 2);
    const db = {};
    let calls = 0;
    const compute = async () => ++calls;
    await memo.get(db, "a", compute, 0);
    await memo.get(db, "b", compute, 0);
    await memo.get(db, "a", compute, 1); // a is now the most recent
    await memo.get(db, "c", compute, 2); // evicts b
    expect(calls).toBe(3);
    await memo.get(db, "a", compute, 3);
    expect(calls).toBe(3);
    await memo.get(db, "b", compute, 3);
    expect(calls).toBe(4);
    const off = createDbMemo(() => 0, 2);
    await off.get(db, "x", compute);
    await off.get(db, "x", compute);
    expect(calls).toBe(6);
  });

  it("keeps at most maxWeight of settled values, dropping the least recently used; a replaced value's weight is freed", async () => {
    const memo = createDbMemo(() => 1000, 100, { staleMs: () => 1000, maxWeight: 10, weigh: (v) => (v as string).length });
    const db = {};
    let computed = 0; // values computed while a caller waits: the keys not kept
    const get = (key: string, value: string, now = 0) => memo.get(db, key, async (background) => (background || computed++, value), now);
    const settle = () => new Promise((r) => setTimeout(r, 0));
    await get("a", "aaaa");
    await get("b", "bbbb");
    await settle();
    await get("a", "aaaa"); // a is now the most recent
    await get("c", "cccc"); // 12 > 10: b goes
    await settle();
    expect(computed).toBe(3);
    await get("a", "aaaa");
    await get("c", "cccc");
    expect(computed).toBe(3);
    await get("b", "bbbb"); // not kept: computed again, and a (least recent) goes
    await settle();
    expect(computed).toBe(4);
    await get("a", "aaaa");
    await settle();
    expect(computed).toBe(5); // and c goes for it: b and a kept, 8
    await get("b", "b", 1500); // stale: answered while its refresh replaces it with a lighter value (a 4, b 1)
    await settle();
    await get("g", "gggg", 1500); // 9: nothing goes
    await settle();
    expect(computed).toBe(6);
    await get("a", "aaaa", 1600);
    await get("g", "gggg", 1600);
    expect(computed).toBe(6);
    await expect(memo.get(db, "e", async () => Promise.reject(new Error("down")), 1600)).rejects.toThrow("down");
    await settle();
    await get("f", "f", 1600); // 10, the failure weighing nothing
    await settle();
    await get("b", "b", 1700);
    expect(computed).toBe(7);
  });

  it("keeps values apart in their own bound: they push out only each other, share a burst, and a write retires them", async () => {
    const memo = createDbMemo(() => 60_000, 2, { apart: { test: (v) => v === null, maxEntries: 2 } });
    const db = {};
    const computed: string[] = [];
    const get = (key: string) => memo.get(db, key, async () => (computed.push(key), key.startsWith("no-") ? null : key));
    await get("a");
    await get("b");
    for (const key of ["no-1", "no-2", "no-3"]) await get(key); // no-1 goes for no-3, a and b stay
    await Promise.all([get("a"), get("b"), get("no-3"), get("no-4"), get("no-4")]);
    expect(computed).toEqual(["a", "b", "no-1", "no-2", "no-3", "no-4"]);
    await get("no-1");
    expect(computed.at(-1)).toBe("no-1");
    await get("c"); // a real value still pushes out the least recent real one
    await get("b");
    await get("a");
    expect(computed.slice(-2)).toEqual(["c", "a"]);
    noteCatalogWrite(db);
    await get("no-1");
    expect(computed.at(-1)).toBe("no-1");
  });

  it("answers an expired entry while one background computation replaces it, within the stale window only", async () => {
    const memo = createDbMemo(() => 1000, 10, { staleMs: () => 1000 });
    const db = {};
    let calls = 0;
    const compute = async () => ++calls;
    const settle = () => new Promise((r) => setTimeout(r, 0));
    expect(await memo.get(db, "a", compute, 0)).toBe(1);
    await settle();
    let finish!: (v: number) => void;
    const backgrounds: boolean[] = [];
    const slow = (background: boolean) => (calls++, backgrounds.push(background), new Promise<number>((r) => (finish = r)));
    expect(await memo.get(db, "a", slow, 1500)).toBe(1); // stale: answered, refresh started
    expect(await memo.get(db, "a", slow, 1600)).toBe(1); // one refresh at a time
    expect(calls).toBe(2);
    expect(backgrounds).toEqual([true]); // nobody waits for it: its compute is told so
    finish(2);
    await settle();
    expect(await memo.get(db, "a", compute, 1700)).toBe(2); // the refreshed value, fresh from 1500
    await settle();
    const waited: boolean[] = [];
    expect(await memo.get(db, "a", (background) => (waited.push(background), compute()), 4000)).toBe(3); // past ttl + stale window: computed while waiting
    expect(waited).toEqual([false]);
    await settle();
    noteCatalogWrite(db);
    expect(await memo.get(db, "a", compute, 4500)).toBe(4); // a write retires it at once, stale or not

    let fail = true;
    const flaky = async () => (fail ? Promise.reject(new Error("down")) : ++calls);
    await settle();
    expect(await memo.get(db, "a", flaky, 5600)).toBe(4); // stale; its refresh fails
    await settle();
    fail = false;
    expect(await memo.get(db, "a", flaky, 5700)).toBe(4); // still the old value; a new refresh starts
    await settle();
    expect(await memo.get(db, "a", flaky, 5800)).toBe(5);
  });

  it("refreshes at most maxRefreshes stale entries at once and answers the others stale meanwhile", async () => {
    const memo = createDbMemo(() => 1000, 10, { staleMs: () => 1000, maxRefreshes: 1 });
    const db = {};
    for (const k of ["a", "b"]) await memo.get(db, k, async () => `${k}0`, 0);
    await new Promise((r) => setTimeout(r, 0));
    let finish!: (v: string) => void;
    let started = 0;
    const slow = (k: string) => () => (started++, new Promise<string>((r) => (finish = (v) => r(`${k}${v}`))));
    expect(await memo.get(db, "a", slow("a"), 1500)).toBe("a0"); // refresh of a starts
    expect(await memo.get(db, "b", slow("b"), 1500)).toBe("b0"); // no slot: stale, no refresh
    expect(started).toBe(1);
    finish("1");
    await new Promise((r) => setTimeout(r, 0));
    expect(await memo.get(db, "a", slow("a"), 1600)).toBe("a1");
    expect(await memo.get(db, "b", slow("b"), 1600)).toBe("b0"); // now b's refresh starts
    expect(started).toBe(2);
  });

  it("spreads the lifetimes of entries computed together over [ttl × (1 − jitter), ttl]", async () => {
    const memo = createDbMemo(() => 1000, 100, { jitter: 0.5 });
    const db = {};
    let calls = 0;
    for (let i = 0; i < 50; i++) await memo.get(db, `k${i}`, async () => ++calls, 0);
    const expiredAt = async (t: number) => {
      const before = calls;
      for (let i = 0; i < 50; i++) await memo.get(db, `k${i}`, async () => ++calls, t);
      return calls - before;
    };
    expect(await expiredAt(499)).toBe(0); // none lives less than half the ttl
    const some = await expiredAt(800);
    expect(some).toBeGreaterThan(0);
    expect(some).toBeLessThan(50);
  });
});
