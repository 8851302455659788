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
const slowLookup = withCaller(
  async ({ query, charge }) => {
    if (crossAt) vi.setSystemTime(crossAt); // the work between admission and charge outlasts the old period
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
