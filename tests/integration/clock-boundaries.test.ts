import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { eq } from "drizzle-orm";
import { withCaller } from "@/lib/api/with-caller";
import { createAccount } from "@/lib/accounts/create-account";
import { createApiKey } from "@/lib/accounts/create-api-key";
import { creditWallets } from "@/lib/db/schema";
import { assertAffordable } from "@/lib/quota";
import type { Db } from "@/lib/db/client";
import { resetDb } from "../helpers/db";

// Requests whose own clock moves across a boundary while they run: the admission reads the clock, the
// handler works (a liveness probe, a slow query), and the charge reads it again.
let db: Db;
let crossAt: Date | null = null;
// another caller's request made while the slow one works, after its clock moved
let meanwhile: (() => Promise<unknown>) | null = null;
const slowLookup = withCaller(
  async ({ query, charge }) => {
    if (crossAt) vi.setSystemTime(crossAt); // the work between admission and charge outlasts the old period
    crossAt = null;
    const other = meanwhile;
    meanwhile = null;
    await other?.();
    const result = await charge(`lookup:${query.name}`, 1);
    return { ok: true, charged: result.charged, repeat: result.repeat };
  },
  { metered: true, query: z.object({ name: z.string() }) },
);
const call = (key: string, name: string) =>
  slowLookup(new Request(`http://localhost/v1/lookup?name=${name}`, { headers: { "x-mcp-preflight-socket-ip": "203.0.113.9", "x-api-key": key } }));

beforeEach(async () => {
  db = await resetDb();
  crossAt = null;
  meanwhile = null;
});
afterEach(() => void vi.useRealTimers());

describe("a keyed call in flight across the first of a UTC month", () => {
  it("is paid from the new month's grant, not refused by last month's empty wallet", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-03-31T23:59:59.999Z") });
    const acc = await createAccount({ email: "month@example.test" }, { db });
    await db.update(creditWallets).set({ grantRemaining: 0 }).where(eq(creditWallets.accountId, acc.id));
    const { key } = await createApiKey(acc.id, { db });
    crossAt = new Date("2026-04-01T00:00:00.000Z");
    const res = await call(key, "io.github.a/b");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, charged: 1, repeat: false });
    expect(res.headers.get("x-credits-remaining")).toBe("999");
    const [w] = await db.select().from(creditWallets).where(eq(creditWallets.accountId, acc.id));
    expect({ period: w.periodStart, left: w.grantRemaining }).toEqual({ period: "2026-04-01", left: 999 });
  });

  it("passes the affordability check a refresh makes before its probe (the admission read March, the check reads April)", async () => {
    const acc = await createAccount({ email: "refresh@example.test" }, { db, now: new Date("2026-03-31T23:59:59.999Z") });
    await db.update(creditWallets).set({ grantRemaining: 0 }).where(eq(creditWallets.accountId, acc.id));
    await expect(assertAffordable(db, acc.id, "preflight:builtin:strict:x", 5, new Date("2026-03-31T23:59:59.999Z"))).rejects.toMatchObject({ code: "payment_required" });
    await expect(assertAffordable(db, acc.id, "preflight:builtin:strict:x", 5, new Date("2026-04-01T00:00:00.000Z"))).resolves.toBeUndefined();
    const [w] = await db.select().from(creditWallets).where(eq(creditWallets.accountId, acc.id));
    expect({ period: w.periodStart, left: w.grantRemaining }).toEqual({ period: "2026-04-01", left: 1000 });
  });
});

describe("quota headers of a call that outlasts the window it was counted in", () => {
  const epoch = (iso: string) => String(Date.parse(iso) / 1000);
  const anonymous = (name: string) =>
    slowLookup(new Request(`http://localhost/v1/lookup?name=${name}`, { headers: { "x-mcp-preflight-socket-ip": "203.0.113.10" } }));

  it("describes the burst window current when it answers, not the minute that ended while it ran", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-03-10T12:00:50.000Z") });
    const acc = await createAccount({ email: "slow@example.test" }, { db });
    const { key } = await createApiKey(acc.id, { db });
    expect((await call(key, "io.github.a/warm")).headers.get("x-ratelimit-remaining")).toBe("59");
    // counted at 12:00:50 (window 12:00–12:01); the work ends at 12:01:10, after another call counted in the new window
    crossAt = new Date("2026-03-10T12:01:10.000Z");
    meanwhile = () => call(key, "io.github.a/quick");
    const res = await call(key, "io.github.a/slow");
    expect(res.status).toBe(200);
    expect([res.headers.get("x-ratelimit-remaining"), res.headers.get("x-ratelimit-reset")]).toEqual(["59", epoch("2026-03-10T12:02:00Z")]);
    expect(res.headers.get("ratelimit")).toBe(`"burst";r=59;t=50`);
    expect(res.headers.get("x-credits-remaining")).toBe("997");
  });

  it("describes the new UTC day's lookups on an anonymous call that ran across midnight", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-03-10T23:59:59.500Z") });
    for (let i = 0; i < 10; i++) expect((await anonymous(`io.github.a/d${i}`)).status).toBe(200);
    // admitted with the 10 lookups of March 10 spent; answered on March 11 as a repeat of a lookup made that day
    vi.setSystemTime(new Date("2026-03-10T23:59:59.900Z"));
    crossAt = new Date("2026-03-11T00:00:00.400Z");
    meanwhile = () => anonymous("io.github.a/new-day");
    const res = await anonymous("io.github.a/new-day");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, charged: 0, repeat: true });
    expect([res.headers.get("x-ratelimit-resource"), res.headers.get("x-ratelimit-remaining"), res.headers.get("x-ratelimit-reset")]).toEqual([
      "daily",
      "9",
      epoch("2026-03-12T00:00:00Z"),
    ]);
    expect(res.headers.get("ratelimit")).toBe(`"burst";r=29;t=60, "daily";r=9;t=86400`);
  });
});
