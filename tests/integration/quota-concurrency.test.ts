import { beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { eq, sql } from "drizzle-orm";
import { withCaller } from "@/lib/api/with-caller";
import { createAccount } from "@/lib/accounts/create-account";
import { createApiKey } from "@/lib/accounts/create-api-key";
import { READ_CHARGE, chargeCaller, type ChargeExtras } from "@/lib/quota";
import { anonymousLookups, creditCharges, creditWallets } from "@/lib/db/schema";
import type { Db } from "@/lib/db/client";
import { sqlRows } from "@/lib/reports/sql-rows";
import { resetDb } from "../helpers/db";

// The same route charging durably and as the catalog reads do (READ_CHARGE: the charge's own commit does not
// wait for the disk); the guarantees must not depend on it.
const lookupWith = (extras: ChargeExtras) =>
  withCaller(
    async ({ query, charge }) => {
      const r = await charge(`lookup:${query.name}`, 1, extras);
      return { ok: true, charged: r.charged };
    },
    { metered: true, query: z.object({ name: z.string() }) },
  );
const routes = { durable: lookupWith({}), "asynchronous commit": lookupWith(READ_CHARGE) };
let lookup = routes.durable;
const get = (name: string, key?: string, ip = "203.0.113.7") =>
  lookup(
    new Request(`http://localhost/v1/lookup?name=${encodeURIComponent(name)}`, {
      headers: { "x-mcp-preflight-socket-ip": ip, ...(key ? { "x-api-key": key } : {}) },
    }),
  );

let db: Db;
beforeEach(async () => {
  db = await resetDb();
});

async function walletOf(credits: number, keys: number) {
  const acc = await createAccount({ email: `c${Math.random()}@example.test` }, { db });
  await db.update(creditWallets).set({ grantRemaining: credits }).where(eq(creditWallets.accountId, acc.id));
  const made = [];
  for (let i = 0; i < keys; i++) made.push((await createApiKey(acc.id, { db })).key);
  return { accountId: acc.id, keys: made };
}
async function remaining(accountId: string) {
  const [w] = await db.select().from(creditWallets).where(eq(creditWallets.accountId, accountId));
  return w.grantRemaining + w.purchasedRemaining;
}

describe.each(Object.keys(routes) as (keyof typeof routes)[])("spending under concurrency, %s", (kind) => {
  const extras = kind === "durable" ? {} : READ_CHARGE;
  beforeEach(() => {
    lookup = routes[kind];
  });

  it("lets exactly 50 of 200 concurrent keyed requests pay from a wallet of 50; the rest get 402", async () => {
    // four keys of one account (one wallet), 50 requests each, to stay under the per-key burst of 60
    const { accountId, keys } = await walletOf(50, 4);
    const responses = await Promise.all(Array.from({ length: 200 }, (_, i) => get(`io.github.a/s${i}`, keys[i % 4])));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(50);
    expect(statuses.filter((s) => s === 402)).toHaveLength(150);
    for (const r of responses.filter((x) => x.status === 402)) {
      expect(await r.json()).toEqual({ ok: false, error: "payment_required", message: expect.any(String) });
    }
    expect(await remaining(accountId)).toBe(0);
    expect(await db.select().from(creditCharges)).toHaveLength(50);
  });

  it("charges two identical simultaneous requests once; both succeed", async () => {
    const { accountId, keys } = await walletOf(10, 1);
    const [a, b] = await Promise.all([get("io.github.a/same", keys[0]), get("io.github.a/same", keys[0])]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const charged = [(await a.json()).charged, (await b.json()).charged].sort();
    expect(charged).toEqual([0, 1]);
    expect(await remaining(accountId)).toBe(9);
  });

  it("lets 20 identical simultaneous requests through on a wallet holding exactly one credit", async () => {
    const { accountId, keys } = await walletOf(1, 1);
    const responses = await Promise.all(Array.from({ length: 20 }, () => get("io.github.a/same", keys[0])));
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(await remaining(accountId)).toBe(0);
  });

  it("counts 20 identical simultaneous anonymous lookups as one of the 10 daily uniques", async () => {
    const responses = await Promise.all(Array.from({ length: 20 }, () => get("io.github.a/same")));
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(await db.select().from(anonymousLookups)).toHaveLength(1);
    expect((await get("io.github.a/other")).headers.get("x-ratelimit-remaining")).toBe("8");
  });

  it("admits exactly 10 of 25 concurrent distinct anonymous lookups from one IP", async () => {
    const responses = await Promise.all(Array.from({ length: 25 }, (_, i) => get(`io.github.a/d${i}`)));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
    expect(await db.select().from(anonymousLookups)).toHaveLength(10);
  });

  it("charges the core directly (the MCP path) with the same guarantees", async () => {
    const { accountId } = await walletOf(5, 0);
    const caller = { tier: "registered" as const, accountId, keyId: null, ip: "127.0.0.1" };
    const results = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => chargeCaller(caller, `s${i % 6}`, 1, extras)));
    const ok = results.filter((r) => r.status === "fulfilled");
    // 6 distinct subjects, 5 credits: 5 paid, each repeat of a paid subject free, the sixth subject refused
    const paid = ok.filter((r) => (r as PromiseFulfilledResult<{ charged: number }>).value.charged === 1);
    expect(paid).toHaveLength(5);
    expect(results.filter((r) => r.status === "rejected").every((r) => (r as PromiseRejectedResult).reason.code === "payment_required")).toBe(true);
    expect(await remaining(accountId)).toBe(0);
  });
});

describe("a charge committed asynchronously", () => {
  it("is stored like any other, and leaves the connection's own commit setting alone", async () => {
    const { accountId, keys } = await walletOf(3, 1);
    lookup = routes["asynchronous commit"];
    // the first call admits the key in full; the second pays in the admission's statement; then anonymous
    expect((await (await get("io.github.a/one", keys[0])).json()).charged).toBe(1);
    expect((await (await get("io.github.a/two", keys[0])).json()).charged).toBe(1);
    expect((await get("io.github.a/three")).status).toBe(200);
    expect(await remaining(accountId)).toBe(1);
    expect((await db.select().from(creditCharges)).map((c) => c.subject).sort()).toEqual(["lookup:io.github.a/one", "lookup:io.github.a/two"]);
    expect(await db.select().from(anonymousLookups)).toHaveLength(1);
    // set_config(…, true) lasts only for the statement's own transaction: every pooled connection still commits durably
    const settings = await Promise.all(Array.from({ length: 8 }, () => sqlRows<{ synchronous_commit: string }>(db, sql`show synchronous_commit`)));
    expect(settings.map(([row]) => row.synchronous_commit)).toEqual(Array(8).fill("on"));
  });

  it("is refused next to a write that must be durable", async () => {
    const { accountId } = await walletOf(5, 0);
    const caller = { tier: "registered" as const, accountId, keyId: null, ip: "127.0.0.1" };
    const alongside = { name: "t", into: "credit_charges (account_id, utc_day, subject, cost)", select: "$1, current_date, 'x', 0", values: [accountId] };
    await expect(chargeCaller(caller, "s", 1, { alongside, asyncCommit: true })).rejects.toThrow(/durably/);
    expect(await remaining(accountId)).toBe(5);
  });
});

describe("inside a caller's transaction", () => {
  it("charges through the transaction passed as db, and rolls back with it", async () => {
    const { accountId } = await walletOf(10, 0);
    const caller = { tier: "registered" as const, accountId, keyId: null, ip: "127.0.0.1" };
    await db.transaction(async (tx) => {
      expect((await chargeCaller(caller, "in-tx", 3, { db: tx })).charged).toBe(3);
      // a refusal inside the transaction leaves it usable
      await expect(chargeCaller(caller, "too-dear", 100, { db: tx })).rejects.toMatchObject({ code: "payment_required" });
      expect((await chargeCaller(caller, "in-tx", 3, { db: tx })).repeat).toBe(true);
    });
    expect(await remaining(accountId)).toBe(7);
    await expect(
      db.transaction(async (tx) => {
        await chargeCaller(caller, "rolled-back", 3, { db: tx });
        throw new Error("the audit could not be recorded");
      }),
    ).rejects.toThrow(/audit/);
    expect(await remaining(accountId)).toBe(7);
    expect((await chargeCaller(caller, "rolled-back", 3)).charged).toBe(3);
  });
});
