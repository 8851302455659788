import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { withCaller } from "@/lib/api/with-caller";
import { invalidRequest, notFound } from "@/lib/api/errors";
import { GET as creditsGet } from "@/app/v1/credits/route";
import { GET as policiesGet } from "@/app/v1/policies/route";
import { GET as changesGet } from "@/app/v1/changes/route";
import { GET as searchGet } from "@/app/v1/search/route";
import { createAccount } from "@/lib/accounts/create-account";
import { createApiKey } from "@/lib/accounts/create-api-key";
import { revokeApiKey } from "@/lib/accounts/revoke-api-key";
import { apiKeyChecksum } from "@/lib/accounts/api-key-format";
import { accounts, creditCharges, creditWallets } from "@/lib/db/schema";
import type { Db } from "@/lib/db/client";
import { resetDb } from "../helpers/db";

// A metered test-only route shaped like the real lookups: validate (400), find
// (404), then charge. `cost` lets one route stand for every capability.
const lookup = withCaller(
  async ({ url, charge, caller }) => {
    const name = url.searchParams.get("name") ?? "";
    if (name.length < 2) throw invalidRequest("name: at least 2 characters");
    if (name.startsWith("missing")) throw notFound(`no server named ${name}`);
    const result = await charge(`lookup:${name}`, Number(url.searchParams.get("cost") ?? "1"));
    return { ok: true, name, tier: caller.tier, charged: result.charged, repeat: result.repeat };
  },
  // it reads its own parameters, with the 400 of a real route's schema
  { metered: true, query: "unchecked" },
);
const keyOnly = withCaller(async ({ charge }) => (await charge("watch:x"), { ok: true }), {
  metered: true,
  keyRequired: true,
  cost: 10,
});
const unmetered = withCaller(async ({ caller }) => ({ ok: true, tier: caller.tier }));
const unmeteredCharging = withCaller(async ({ charge }) => (await charge("x", 1), { ok: true }));

const T0 = new Date("2026-03-10T12:00:05.000Z");
const call = (handler: (req: Request) => Promise<Response>, path: string, h: { key?: string; ip?: string } = {}) => {
  const headers: Record<string, string> = { "x-mcp-preflight-socket-ip": h.ip ?? "203.0.113.7" };
  if (h.key !== undefined) headers["x-api-key"] = h.key;
  return handler(new Request(`http://localhost${path}`, { headers }));
};
const get = (path: string, h: { key?: string; ip?: string } = {}) => call(lookup, path, h);

let db: Db;
async function account(opts: { tier?: "registered" | "pro"; credits?: number; email?: string } = {}) {
  const acc = await createAccount({ email: opts.email ?? `u${Math.random()}@example.test`, tier: opts.tier }, { db });
  if (opts.credits !== undefined) {
    await db.update(creditWallets).set({ grantRemaining: opts.credits }).where(eq(creditWallets.accountId, acc.id));
  }
  const k = await createApiKey(acc.id, { db });
  return { accountId: acc.id, ...k };
}
async function remaining(accountId: string): Promise<number> {
  const [w] = await db.select().from(creditWallets).where(eq(creditWallets.accountId, accountId));
  return w.grantRemaining + w.purchasedRemaining;
}
function wellFormedUnknownKey(): string {
  const body = "catk_" + "A".repeat(32);
  return body + apiKeyChecksum(body);
}

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ["Date"], now: T0 });
  db = await resetDb();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("a key sent in Authorization instead of x-api-key", () => {
  it("is a 401 that says where the key goes, not a silent anonymous call", async () => {
    const acc = await account();
    const res = await lookup(new Request("http://localhost/v1/lookup?name=io.github.a/b", { headers: { "x-mcp-preflight-socket-ip": "198.51.100.10", authorization: `Bearer ${acc.key}` } }));
    expect(res.status).toBe(401);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ ok: false, error: "unauthorized", message: expect.stringContaining("x-api-key") });
    expect(text).not.toContain(acc.key);
    // another Authorization (a proxy's own credentials) is none of our business: anonymous as before
    const other = await lookup(new Request("http://localhost/v1/lookup?name=io.github.a/b", { headers: { "x-mcp-preflight-socket-ip": "198.51.100.10", authorization: "Basic dXNlcjpwYXNz" } }));
    expect(other.status).toBe(200);
    expect(other.headers.get("x-tier")).toBe("free");
    // with the key in x-api-key too, that one is used
    const both = await lookup(new Request("http://localhost/v1/lookup?name=io.github.a/b", { headers: { "x-mcp-preflight-socket-ip": "198.51.100.10", authorization: `Bearer ${acc.key}`, "x-api-key": acc.key } }));
    expect(both.status).toBe(200);
    expect(both.headers.get("x-tier")).not.toBe("free");
  });

  it.each([["bare", ""], ["Token", "Token "], ["ApiKey", "ApiKey "], ["Api-Key", "Api-Key "]])(
    "is the same 401 with the key alone or under another scheme (%s), not a silent anonymous call",
    async (_label, scheme) => {
      const acc = await account();
      const res = await lookup(new Request("http://localhost/v1/lookup?name=io.github.a/b", { headers: { "x-mcp-preflight-socket-ip": "198.51.100.10", authorization: `${scheme}${acc.key}` } }));
      expect(res.status).toBe(401);
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({ ok: false, error: "unauthorized", message: "send the API key in the x-api-key header, not in Authorization" });
      expect(text).not.toContain(acc.key);
    },
  );
});

describe("401: keys that are missing, invalid or revoked", () => {
  it.each([
    ["a malformed key on an optional-key route", "optional", "not-a-key"],
    ["a key with a wrong checksum on an optional-key route", "optional", "catk_" + "A".repeat(32) + "zzzzzz"],
    ["a well-formed unknown key on an optional-key route", "optional", "unknown"],
    ["a revoked key on an optional-key route", "optional", "revoked"],
    ["no key on a key-required route", "required", undefined],
    ["a revoked key on a key-required route", "required", "revoked"],
    ["no key on /v1/credits", "credits", undefined],
    ["an unknown key on /v1/credits", "credits", "unknown"],
    ["a revoked key on /v1/credits", "credits", "revoked"],
  ] as const)("answers %s with 401 unauthorized and spends nothing", async (_label, route, keyKind) => {
    const acc = await account();
    let key: string | undefined = keyKind;
    if (keyKind === "revoked") {
      expect(await revokeApiKey(acc.accountId, acc.keyId, { db })).toBe(true);
      key = acc.key;
    }
    if (keyKind === "unknown") key = wellFormedUnknownKey();
    const res =
      route === "optional"
        ? await get("/v1/lookup?name=io.github.a/b", { key })
        : route === "required"
          ? await call(keyOnly, "/v1/watch", { key })
          : await call(creditsGet, "/v1/credits", { key });
    expect(res.status).toBe(401);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ ok: false, error: "unauthorized", message: expect.any(String) });
    if (key) expect(text).not.toContain(key);
    expect(res.headers.get("x-tier")).toBeNull();
    expect(await remaining(acc.accountId)).toBe(1000);
    expect(await db.select().from(creditCharges)).toEqual([]);
  });

  it("revocation takes effect on the very next request", async () => {
    const acc = await account();
    expect((await get("/v1/lookup?name=io.github.a/b", { key: acc.key })).status).toBe(200);
    await revokeApiKey(acc.accountId, acc.keyId, { db });
    expect((await get("/v1/lookup?name=io.github.a/b", { key: acc.key })).status).toBe(401);
  });

  it("does not let one account revoke another's key", async () => {
    const a = await account();
    const b = await account();
    expect(await revokeApiKey(a.accountId, b.keyId, { db })).toBe(false);
    expect((await get("/v1/lookup?name=x1", { key: b.key })).status).toBe(200);
  });
});

describe("402: the credit wallet", () => {
  it.each([
    ["an empty wallet", 0, 1],
    ["a wallet short of a preflight's 5 credits", 4, 5],
  ])("answers %s with 402 payment_required and leaves it untouched", async (_label, credits, cost) => {
    const acc = await account({ credits });
    const res = await get(`/v1/lookup?name=io.github.a/b&cost=${cost}`, { key: acc.key });
    expect(res.status).toBe(402);
    expect(await res.json()).toEqual({ ok: false, error: "payment_required", message: expect.any(String) });
    expect(res.headers.get("x-credits-remaining")).toBe(String(credits));
    expect(await remaining(acc.accountId)).toBe(credits);
    // nothing was recorded as paid: after a top-up the same subject is charged
    expect(await db.select().from(creditCharges)).toEqual([]);
    await db.update(creditWallets).set({ purchasedRemaining: 10 }).where(eq(creditWallets.accountId, acc.accountId));
    const again = await get(`/v1/lookup?name=io.github.a/b&cost=${cost}`, { key: acc.key });
    expect(again.status).toBe(200);
    expect(await remaining(acc.accountId)).toBe(credits + 10 - cost);
  });

  it("spends the grant first, then purchased credits, and never goes below zero", async () => {
    const acc = await account({ credits: 3 });
    await db.update(creditWallets).set({ purchasedRemaining: 4 }).where(eq(creditWallets.accountId, acc.accountId));
    expect((await get("/v1/lookup?name=aa&cost=5", { key: acc.key })).status).toBe(200);
    const [w] = await db.select().from(creditWallets).where(eq(creditWallets.accountId, acc.accountId));
    expect([w.grantRemaining, w.purchasedRemaining]).toEqual([0, 2]);
    expect((await get("/v1/lookup?name=bb&cost=5", { key: acc.key })).status).toBe(402);
    expect((await get("/v1/lookup?name=cc&cost=2", { key: acc.key })).status).toBe(200);
    expect(await remaining(acc.accountId)).toBe(0);
  });
});

describe("429: burst limits", () => {
  it.each([
    ["a key", "keyed", 60],
    ["an anonymous client IP", "anonymous", 30],
  ] as const)("allows %s its burst per minute, then answers 429 with retry_after in seconds", async (_l, kind, limit) => {
    const acc = await account();
    const key = kind === "keyed" ? acc.key : undefined;
    for (let i = 0; i < limit; i++) {
      const res = await get("/v1/lookup?name=io.github.a/b", { key });
      expect(res.status).toBe(200);
    }
    const res = await get("/v1/lookup?name=io.github.other/new", { key });
    expect(res.status).toBe(429);
    const body = await res.json();
    // T0 is 5 s into its minute: 55 s to the next window
    expect(body).toEqual({
      ok: false,
      error: "rate_limited",
      message: expect.stringMatching(/burst/),
      retry_after: 55,
      reset_at: "2026-03-10T12:01:00.000Z",
    });
    expect(res.headers.get("retry-after")).toBe("55");
    expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(res.headers.get("ratelimit")).toContain(`"burst";r=0;t=55`);
    // the rejected request spent nothing
    if (kind === "keyed") expect(await remaining(acc.accountId)).toBe(999);
    else expect(res.headers.get("x-ratelimit-resource")).toBe("burst");
    // the next window lets the caller in again
    vi.setSystemTime(new Date("2026-03-10T12:01:00.000Z"));
    expect((await get("/v1/lookup?name=io.github.a/b", { key })).status).toBe(200);
  });

  it("counts a key's unpaid calls (wallet, evaluations, watches) in the same burst window as its paid ones", async () => {
    const acc = await account();
    for (let i = 0; i < 30; i++) expect((await get("/v1/lookup?name=aa", { key: acc.key })).status).toBe(200);
    for (let i = 0; i < 29; i++) expect((await call(creditsGet, "/v1/credits", { key: acc.key })).status).toBe(200);
    const last = await call(creditsGet, "/v1/credits", { key: acc.key });
    expect(last.status).toBe(200);
    expect(last.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(last.headers.get("x-ratelimit-resource")).toBe("burst");
    expect(last.headers.get("x-ratelimit-limit")).toBe("60");
    expect(last.headers.get("x-tier")).toBe("registered");
    const over = await call(creditsGet, "/v1/credits", { key: acc.key });
    expect(over.status).toBe(429);
    expect(await over.json()).toMatchObject({ error: "rate_limited", retry_after: 55 });
    expect(over.headers.get("retry-after")).toBe("55");
    expect((await get("/v1/lookup?name=aa", { key: acc.key })).status).toBe(429);
  });

  it("counts bursts per key and per IP separately", async () => {
    const a = await account();
    const b = await account();
    for (let i = 0; i < 60; i++) await get("/v1/lookup?name=aa", { key: a.key });
    expect((await get("/v1/lookup?name=aa", { key: a.key })).status).toBe(429);
    expect((await get("/v1/lookup?name=aa", { key: b.key })).status).toBe(200);
    expect((await get("/v1/lookup?name=aa", { ip: "198.51.100.1" })).status).toBe(200);
  });
});

describe("anonymous daily allowance: 10 unique lookups per UTC day per IP", () => {
  it("counts distinct subjects, lets repeats through free and answers the 11th with 429 until midnight", async () => {
    for (let i = 0; i < 10; i++) {
      const res = await get(`/v1/lookup?name=io.github.a/s${i}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("x-ratelimit-limit")).toBe("10");
      expect(res.headers.get("x-ratelimit-remaining")).toBe(String(9 - i));
    }
    const res = await get("/v1/lookup?name=io.github.a/s10");
    expect(res.status).toBe(429);
    const secondsToMidnight = 12 * 3600 - 5;
    expect(await res.json()).toEqual({
      ok: false,
      error: "rate_limited",
      message: expect.stringMatching(/10 distinct lookups per UTC day/),
      retry_after: secondsToMidnight,
      reset_at: "2026-03-11T00:00:00.000Z",
    });
    expect(res.headers.get("retry-after")).toBe(String(secondsToMidnight));
    expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(res.headers.get("x-ratelimit-resource")).toBe("daily");

    // a repeat of an earlier lookup is free, also past the limit
    const repeat = await get("/v1/lookup?name=io.github.a/s3");
    expect(repeat.status).toBe(200);
    expect(await repeat.json()).toMatchObject({ repeat: true });
    // another IP has its own allowance
    expect((await get("/v1/lookup?name=io.github.a/s10", { ip: "198.51.100.9" })).status).toBe(200);
    // a new UTC day starts afresh
    vi.setSystemTime(new Date("2026-03-11T00:00:00.000Z"));
    expect((await get("/v1/lookup?name=io.github.a/s10")).status).toBe(200);
  });

  it("names the burst window in the headers of a burst 429 when the day's lookups are used up too", async () => {
    // both windows at 0: the headers describe the one that refused, or a client waiting on x-ratelimit-reset would
    // sit out the day for a repeat that goes through in 55 s
    for (let i = 0; i < 10; i++) expect((await get(`/v1/lookup?name=io.github.a/s${i}`)).status).toBe(200);
    for (let i = 10; i < 30; i++) expect((await get("/v1/lookup?name=io.github.a/s3")).status).toBe(200);
    const res = await get("/v1/lookup?name=io.github.a/s3");
    expect(res.status).toBe(429);
    expect(await res.json()).toMatchObject({ retry_after: 55, reset_at: "2026-03-10T12:01:00.000Z" });
    expect(res.headers.get("x-ratelimit-resource")).toBe("burst");
    expect(res.headers.get("x-ratelimit-limit")).toBe("30");
    expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(res.headers.get("x-ratelimit-reset")).toBe(String(Date.parse("2026-03-10T12:01:00.000Z") / 1000));
    expect(res.headers.get("ratelimit")).toBe(`"burst";r=0;t=55, "daily";r=0;t=${12 * 3600 - 5}`);
  });

  it("counts an IPv6 client by its /64, which it can pick any address of, and an IPv4-mapped one as its IPv4", async () => {
    for (let i = 0; i < 10; i++) expect((await get(`/v1/lookup?name=io.github.a/v${i}`, { ip: `2001:db8:1:2::${(i + 1).toString(16)}` })).status).toBe(200);
    // another address of the same /64, however it is written
    expect((await get("/v1/lookup?name=io.github.a/v10", { ip: "2001:0db8:0001:0002:ffff:ffff:ffff:ffff" })).status).toBe(429);
    // a repeat from another address of it is still free
    expect((await get("/v1/lookup?name=io.github.a/v3", { ip: "2001:db8:1:2:abcd::1" })).status).toBe(200);
    // the neighbouring /64 is another client
    expect((await get("/v1/lookup?name=io.github.a/v10", { ip: "2001:db8:1:3::1" })).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await get(`/v1/lookup?name=io.github.b/m${i}`, { ip: "203.0.113.7" })).status).toBe(200);
    expect((await get("/v1/lookup?name=io.github.b/m10", { ip: "::ffff:203.0.113.7" })).status).toBe(429);
  });

  it("ignores x-forwarded-for unless TRUST_PROXY is set", async () => {
    const spoof = (ip: string) =>
      lookup(new Request(`http://localhost/v1/lookup?name=n-${ip}`, { headers: { "x-mcp-preflight-socket-ip": "203.0.113.50", "x-forwarded-for": ip } }));
    for (let i = 0; i < 10; i++) expect((await spoof(`10.0.0.${i}`)).status).toBe(200);
    expect((await spoof("10.0.0.99")).status).toBe(429);
    process.env.TRUST_PROXY = "1";
    try {
      expect((await spoof("10.0.0.100")).status).toBe(200);
      // our proxy appends the address it was reached from: what the client put before it buys nothing
      for (let i = 0; i < 10; i++) expect((await spoof(`10.1.0.${i}, 192.0.2.77`)).status).toBe(200);
      expect((await spoof("10.1.0.99, 192.0.2.77")).status).toBe(429);
    } finally {
      delete process.env.TRUST_PROXY;
    }
  });

  it("behind a proxy that forwards the client's port too, counts the address, not each connection", async () => {
    // Azure Application Gateway appends `address:port` (`[v6]:port` for IPv6): every new connection has a new port
    const viaProxy = (name: string, forwarded: string) =>
      lookup(new Request(`http://localhost/v1/lookup?name=${name}`, { headers: { "x-mcp-preflight-socket-ip": "10.0.0.2", "x-forwarded-for": forwarded } }));
    process.env.TRUST_PROXY = "1";
    try {
      for (let i = 0; i < 10; i++) expect((await viaProxy(`io.github.p/v4-${i}`, `203.0.113.61:${50000 + i}`)).status).toBe(200);
      expect((await viaProxy("io.github.p/v4-10", "203.0.113.61:50010")).status).toBe(429);
      expect((await viaProxy("io.github.p/v4-10", "203.0.113.61")).status).toBe(429);
      for (let i = 0; i < 10; i++) expect((await viaProxy(`io.github.p/v6-${i}`, `[2001:db8:7:8::${i + 1}]:${40000 + i}`)).status).toBe(200);
      // another address of that /64, with or without brackets and port, is the same client
      expect((await viaProxy("io.github.p/v6-10", "[2001:db8:7:8::ff]")).status).toBe(429);
      expect((await viaProxy("io.github.p/v6-10", "2001:db8:7:8::fe")).status).toBe(429);
    } finally {
      delete process.env.TRUST_PROXY;
    }
  });
});

describe("repeats and rejected requests", () => {
  it("charges a repeat of the same subject on the same UTC day once, and again the next day", async () => {
    const acc = await account();
    const first = await get("/v1/lookup?name=io.github.a/b&cost=5", { key: acc.key });
    expect(await first.json()).toMatchObject({ charged: 5, repeat: false });
    expect(first.headers.get("x-credits-remaining")).toBe("995");
    const second = await get("/v1/lookup?name=io.github.a/b&cost=5", { key: acc.key });
    expect(await second.json()).toMatchObject({ charged: 0, repeat: true });
    expect(second.headers.get("x-credits-remaining")).toBe("995");
    // a second key of the same account is the same caller
    const other = await createApiKey(acc.accountId, { db });
    expect(await (await get("/v1/lookup?name=io.github.a/b&cost=5", { key: other.key })).json()).toMatchObject({ repeat: true });
    vi.setSystemTime(new Date("2026-03-11T08:00:00.000Z"));
    expect(await (await get("/v1/lookup?name=io.github.a/b&cost=5", { key: acc.key })).json()).toMatchObject({ charged: 5 });
    expect(await remaining(acc.accountId)).toBe(990);
  });

  it.each([
    ["400 invalid_request", "/v1/lookup?name=x", 400],
    ["404 not_found", "/v1/lookup?name=missing/one", 404],
  ])("spends nothing on %s, keyed or anonymous, and still sends the quota headers", async (_l, path, status) => {
    const acc = await account();
    const keyed = await get(path, { key: acc.key });
    expect(keyed.status).toBe(status);
    expect(keyed.headers.get("x-credits-remaining")).toBe("1000");
    expect(keyed.headers.get("x-tier")).toBe("registered");
    expect(await remaining(acc.accountId)).toBe(1000);
    const anon = await get(path);
    expect(anon.status).toBe(status);
    expect(anon.headers.get("x-ratelimit-remaining")).toBe("10");
    // the next real lookup is the first of the day
    expect((await get("/v1/lookup?name=io.github.a/b")).headers.get("x-ratelimit-remaining")).toBe("9");
  });
});

describe("headers of metered responses", () => {
  it.each([
    [
      "an anonymous caller",
      undefined,
      {
        "x-tier": "free",
        "x-ratelimit-limit": "10",
        "x-ratelimit-remaining": "9",
        "x-ratelimit-reset": String(Date.parse("2026-03-11T00:00:00Z") / 1000),
        "x-ratelimit-resource": "daily",
        "x-credits-remaining": null,
        "ratelimit-policy": `"burst";q=30;w=60, "daily";q=10;w=86400`,
        ratelimit: `"burst";r=29;t=55, "daily";r=9;t=43195`,
      },
    ],
    [
      "a registered key",
      "registered",
      {
        "x-tier": "registered",
        "x-ratelimit-limit": "60",
        "x-ratelimit-remaining": "59",
        "x-ratelimit-reset": String(Date.parse("2026-03-10T12:01:00Z") / 1000),
        "x-ratelimit-resource": "burst",
        "x-credits-remaining": "999",
        "ratelimit-policy": `"burst";q=60;w=60`,
        ratelimit: `"burst";r=59;t=55`,
      },
    ],
    [
      "a pro key",
      "pro",
      {
        "x-tier": "pro",
        "x-ratelimit-limit": "60",
        "x-ratelimit-remaining": "59",
        "x-credits-remaining": "19999",
        "ratelimit-policy": `"burst";q=60;w=60`,
      },
    ],
  ] as const)("sends the tier, rate-limit and credit headers to %s", async (_l, tier, expected) => {
    const key = tier ? (await account({ tier })).key : undefined;
    const res = await get("/v1/lookup?name=io.github.a/b", { key });
    expect(res.status).toBe(200);
    for (const [name, value] of Object.entries(expected)) expect([name, res.headers.get(name)]).toEqual([name, value]);
  });

  it("marks every metered or key-only answer, refusals included, as for its caller alone (private, no-store)", async () => {
    const acc = await account();
    expect((await get("/v1/lookup?name=aa", { key: acc.key })).headers.get("cache-control")).toBe("private, no-store");
    expect((await get("/v1/lookup?name=aa")).headers.get("cache-control")).toBe("private, no-store");
    for (let i = 0; i < 60; i++) await get("/v1/lookup?name=aa", { key: acc.key });
    const refused = await get("/v1/lookup?name=aa", { key: acc.key });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("cache-control")).toBe("private, no-store");
    expect((await call(creditsGet, "/v1/credits", { key: acc.key })).headers.get("cache-control")).toBe("private, no-store");
  });

  it("sends no quota headers on unmetered routes, which never spend", async () => {
    const acc = await account();
    const res = await call(unmetered, "/v1/stats", { key: acc.key });
    expect(res.status).toBe(200);
    // a keyless route (Auth: none) does not read the key at all
    expect(await res.json()).toEqual({ ok: true, tier: "free" });
    for (const key of ["catk_definitely-not-valid", "catk_" + "A".repeat(38)]) {
      const stale = await call(unmetered, "/v1/stats", { key });
      expect(stale.status, key).toBe(200);
      // the real routes without auth in the contract, with and without a body or query
      expect((await call(policiesGet, "/v1/policies", { key })).status, key).toBe(200);
      expect((await call(changesGet, "/v1/changes", { key })).status, key).toBe(200);
      // …while a metered route with an optional key still refuses the bad one
      expect((await call(searchGet, "/v1/search?q=weather", { key })).status, key).toBe(401);
    }
    for (const h of ["x-tier", "x-ratelimit-limit", "x-credits-remaining", "ratelimit"]) expect(res.headers.get(h)).toBeNull();
    expect(await remaining(acc.accountId)).toBe(1000);
    // charging on an unmetered route is a programming error, not a silent spend
    vi.spyOn(console, "error").mockImplementation(() => {});
    expect((await call(unmeteredCharging, "/v1/stats", { key: acc.key })).status).toBe(500);
    expect(await remaining(acc.accountId)).toBe(1000);
  });

  it("answers a key-required metered route with 200 and charges its default cost", async () => {
    const acc = await account();
    const res = await call(keyOnly, "/v1/watch", { key: acc.key });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-credits-remaining")).toBe("990");
  });
});

describe("GET /v1/credits", () => {
  it("returns the wallet and spends nothing", async () => {
    const acc = await account();
    await get("/v1/lookup?name=io.github.a/b&cost=5", { key: acc.key });
    for (let i = 0; i < 2; i++) {
      const res = await call(creditsGet, "/v1/credits", { key: acc.key });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        ok: true,
        tier: "registered",
        remaining: 995,
        grant: 1000,
        grant_remaining: 995,
        purchased: 0,
        period_start: "2026-03-01T00:00:00.000Z",
        period_end: "2026-04-01T00:00:00.000Z",
        costs: { search: 1, lookup: 1, preflight: 5, stamp: 5, watch_subscribe: 10, lookalikes: 1, config_audit: 1 },
      });
    }
  });

  it("refills the grant at the first call of a new UTC month and keeps purchased credits", async () => {
    const acc = await account({ credits: 7 });
    await db.update(creditWallets).set({ purchasedRemaining: 30 }).where(eq(creditWallets.accountId, acc.accountId));
    vi.setSystemTime(new Date("2026-04-01T00:00:01.000Z"));
    const [a, b] = await Promise.all([
      call(creditsGet, "/v1/credits", { key: acc.key }),
      call(creditsGet, "/v1/credits", { key: acc.key }),
    ]);
    for (const res of [a, b]) {
      expect(await res.json()).toMatchObject({
        remaining: 1030,
        grant: 1000,
        grant_remaining: 1000,
        purchased: 30,
        period_start: "2026-04-01T00:00:00.000Z",
        period_end: "2026-05-01T00:00:00.000Z",
      });
    }
    const lookup1 = await get("/v1/lookup?name=aa", { key: acc.key });
    expect(lookup1.headers.get("x-credits-remaining")).toBe("1029");
  });
});

// GET /v1/search admits a key this process knows in the statement that pays (admitWithCharge): the contract's
// headers must say the same as after a full admission, a repeat stays free, and a revoked key is still 401.
describe("GET /v1/search with a key admitted in its paying statement", () => {
  it("sends x-tier, x-ratelimit-* and x-credits-remaining on every answer, and 401 once the key is revoked", async () => {
    const acc = await account({ tier: "pro", credits: 10 });
    const search = (q: string) => call(searchGet, `/v1/search?q=${q}`, { key: acc.key });
    const seen = [];
    for (const q of ["weather", "github", "weather"]) {
      const res = await search(q);
      expect(res.status).toBe(200);
      seen.push(["x-tier", "x-ratelimit-limit", "x-ratelimit-remaining", "x-credits-remaining"].map((h) => res.headers.get(h)));
    }
    // the second and third calls are admitted from memory; the third repeats the first query: free
    expect(seen).toEqual([
      ["pro", "60", "59", "9"],
      ["pro", "60", "58", "8"],
      ["pro", "60", "57", "8"],
    ]);
    await revokeApiKey(acc.accountId, acc.keyId, { db });
    const refused = await search("notion");
    expect(refused.status).toBe(401);
    expect(refused.headers.get("x-credits-remaining")).toBeNull();
    expect(await remaining(acc.accountId)).toBe(8);
  });
});

describe("the transport-neutral core (what the MCP endpoint calls)", () => {
  it("admits, charges and reports headers without a Request, and puts the headers on its 429", async () => {
    const { admitCaller, chargeCaller, quotaHeaders } = await import("@/lib/quota");
    const acc = await account({ credits: 5 });
    const { caller, state } = await admitCaller({ apiKey: acc.key, ip: "192.0.2.1" }, { metered: true });
    expect(caller).toEqual({ tier: "registered", accountId: acc.accountId, keyId: acc.keyId, ip: "192.0.2.1" });
    await chargeCaller(caller, "preflight:builtin:baseline:io.github.a/b", 5, { state });
    expect(quotaHeaders(caller, state)).toMatchObject({ "x-tier": "registered", "x-credits-remaining": "0", "x-ratelimit-remaining": "59" });
    await expect(chargeCaller(caller, "search:other", 1, { state })).rejects.toMatchObject({ code: "payment_required", status: 402 });
    await expect(admitCaller({ apiKey: "catk_nope", ip: "192.0.2.1" })).rejects.toMatchObject({ code: "unauthorized" });
    await expect(admitCaller({ ip: "192.0.2.1" }, { keyRequired: true })).rejects.toMatchObject({ code: "unauthorized" });
    for (let i = 0; i < 59; i++) await admitCaller({ apiKey: acc.key, ip: "192.0.2.1" }, { metered: true });
    const err = await admitCaller({ apiKey: acc.key, ip: "192.0.2.1" }, { metered: true }).catch((e) => e);
    expect(err).toMatchObject({ code: "rate_limited", extra: { retryAfter: 55, headers: { "x-tier": "registered", "x-ratelimit-remaining": "0" } } });
  });

  it("reports the wallet as it is on a 402, not as the admission read it before another call spent it", async () => {
    const { admitCaller, chargeCaller, quotaHeaders } = await import("@/lib/quota");
    const acc = await account({ credits: 12 });
    const first = await admitCaller({ apiKey: acc.key, ip: "192.0.2.1" }, { metered: true });
    const second = await admitCaller({ apiKey: acc.key, ip: "192.0.2.1" }, { metered: true });
    expect(first.state.creditsRemaining).toBe(12);
    await chargeCaller(second.caller, "stamp:builtin:baseline:io.github.a/b", 10, { state: second.state });
    await expect(chargeCaller(first.caller, "preflight:builtin:baseline:io.github.a/b", 5, { state: first.state })).rejects.toMatchObject({ code: "payment_required" });
    // the 402 says the wallet cannot pay 5: its header must not say 12 are left
    expect(quotaHeaders(first.caller, first.state)["x-credits-remaining"]).toBe("2");
  });
});

describe("another keyless allowance", () => {
  it("counts an anonymous allowance of its own (config audit: one config per IP per day) apart from the lookups", async () => {
    const audit = withCaller(
      async ({ url, charge }) => {
        await charge(`audit:${url.searchParams.get("config")}`, 1, { allowance: { name: "config-audits", limit: 1 } });
        return { ok: true };
      },
      { metered: true, query: "unchecked" },
    );
    const headersOf = (res: Response) => ["x-ratelimit-resource", "x-ratelimit-limit", "x-ratelimit-remaining"].map((h) => res.headers.get(h));
    const first = await call(audit, "/v1/audit?config=a");
    expect(first.status).toBe(200);
    expect(headersOf(first)).toEqual(["config-audits", "1", "0"]);
    // a free repeat says the same about the allowance it would spend (not the untouched lookups)
    const repeat = await call(audit, "/v1/audit?config=a");
    expect(repeat.status).toBe(200);
    expect(headersOf(repeat)).toEqual(["config-audits", "1", "0"]);
    const second = await call(audit, "/v1/audit?config=b");
    expect(second.status).toBe(429);
    expect(await second.json()).toMatchObject({ error: "rate_limited", message: expect.stringMatching(/1 distinct config-audit per UTC day/) });
    // the lookups are untouched
    expect((await get("/v1/lookup?name=io.github.a/b")).headers.get("x-ratelimit-remaining")).toBe("9");
  });
});

describe("a key this process knows is admitted by the statement that pays (admitWithCharge)", () => {
  const paid = withCaller(
    async ({ url, charge }) => {
      const name = url.searchParams.get("name") ?? "";
      if (name.length < 2) throw invalidRequest("name: at least 2 characters");
      if (name.startsWith("missing")) throw notFound(`no server named ${name}`);
      const result = await charge(`paid:${name}`, Number(url.searchParams.get("cost") ?? "1"));
      return { ok: true, charged: result.charged, repeat: result.repeat };
    },
    { metered: true, admitWithCharge: true, query: "unchecked" },
  );
  const ask = (path: string, key: string) => call(paid, path, { key });
  const headersOf = (res: Response) => [res.status, res.headers.get("x-credits-remaining"), res.headers.get("x-ratelimit-remaining"), res.headers.get("x-tier")];

  it("answers, charges and reports exactly as the two-statement path does", async () => {
    const acc = await account({ tier: "pro" });
    const first = await ask("/v1/paid?name=aa", acc.key); // not known yet: full admission, then remembered
    expect(headersOf(first)).toEqual([200, "19999", "59", "pro"]);
    const second = await ask("/v1/paid?name=bb", acc.key); // one statement
    expect(headersOf(second)).toEqual([200, "19998", "58", "pro"]);
    expect(await second.json()).toEqual({ ok: true, charged: 1, repeat: false });
    const repeat = await ask("/v1/paid?name=bb", acc.key);
    expect(headersOf(repeat)).toEqual([200, "19998", "57", "pro"]);
    expect(await repeat.json()).toEqual({ ok: true, charged: 0, repeat: true });
    expect((await db.select().from(creditCharges)).map((c) => c.subject).sort()).toEqual(["paid:aa", "paid:bb"]);
    expect(await remaining(acc.accountId)).toBe(19998);
  });

  it("refuses a key revoked after it became known with 401, before the route's own 400 or 404, and spends nothing", async () => {
    const acc = await account();
    expect((await ask("/v1/paid?name=aa", acc.key)).status).toBe(200);
    await revokeApiKey(acc.accountId, acc.keyId, { db });
    for (const path of ["/v1/paid?name=bb", "/v1/paid?name=x", "/v1/paid?name=missing1", "/v1/paid?name=bb"]) {
      const res = await ask(path, acc.key);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error: "unauthorized" });
      // a refused key is no caller: nothing about its account goes out
      for (const h of ["x-tier", "x-credits-remaining", "x-ratelimit-remaining"]) expect(res.headers.get(h)).toBeNull();
    }
    expect(await remaining(acc.accountId)).toBe(999);
    expect((await db.select().from(creditCharges)).map((c) => c.subject)).toEqual(["paid:aa"]);
  });

  it("counts every request in the burst window, refused ones included, and answers 429 past it with nothing spent", async () => {
    const acc = await account();
    expect((await ask("/v1/paid?name=aa", acc.key)).status).toBe(200);
    const bad = await ask("/v1/paid?name=x", acc.key); // 400, admitted before it is answered
    expect([bad.status, bad.headers.get("x-ratelimit-remaining")]).toEqual([400, "58"]);
    for (let i = 0; i < 58; i++) expect((await ask("/v1/paid?name=aa", acc.key)).status).toBe(200);
    const over = await ask("/v1/paid?name=new1", acc.key);
    expect(over.status).toBe(429);
    expect(await over.json()).toMatchObject({ error: "rate_limited", retry_after: 55 });
    expect(over.headers.get("retry-after")).toBe("55");
    expect(over.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(over.headers.get("x-ratelimit-limit")).toBe("60");
    expect(over.headers.get("ratelimit")).toContain(`"burst";r=0;t=55`);
    expect(over.headers.get("x-credits-remaining")).toBe("999");
    expect((await db.select().from(creditCharges)).map((c) => c.subject)).toEqual(["paid:aa"]);
    vi.setSystemTime(new Date("2026-03-10T12:01:00.000Z"));
    expect((await ask("/v1/paid?name=new1", acc.key)).status).toBe(200);
  });

  it("refills the grant of a new UTC month through the full admission, then pays", async () => {
    const acc = await account({ credits: 7 });
    expect((await ask("/v1/paid?name=aa", acc.key)).status).toBe(200);
    vi.setSystemTime(new Date("2026-04-01T00:00:01.000Z"));
    const res = await ask("/v1/paid?name=bb", acc.key);
    expect(headersOf(res)).toEqual([200, "999", "59", "registered"]);
    expect(await remaining(acc.accountId)).toBe(999);
  });

  it("answers a wallet that cannot pay with 402, spends nothing and still counts the request's burst", async () => {
    const acc = await account({ credits: 1 });
    expect((await ask("/v1/paid?name=aa", acc.key)).status).toBe(200);
    const res = await ask("/v1/paid?name=bb", acc.key);
    expect(headersOf(res)).toEqual([402, "0", "58", "registered"]);
    expect((await db.select().from(creditCharges)).map((c) => c.subject)).toEqual(["paid:aa"]);
  });

  it("reads the tier from the database, not from what the process remembered", async () => {
    const acc = await account({ tier: "registered" });
    expect(headersOf(await ask("/v1/paid?name=aa", acc.key))[3]).toBe("registered");
    await db.update(accounts).set({ tier: "pro" }).where(eq(accounts.id, acc.accountId));
    expect(headersOf(await ask("/v1/paid?name=bb", acc.key))[3]).toBe("pro");
  });

  it("reads the tier from the database on a refusal too (400, 404, 402), not from what the process remembered", async () => {
    const acc = await account({ tier: "registered", credits: 3 });
    expect(headersOf(await ask("/v1/paid?name=aa", acc.key))[3]).toBe("registered");
    await db.update(accounts).set({ tier: "pro" }).where(eq(accounts.id, acc.accountId));
    expect(headersOf(await ask("/v1/paid?name=missing1", acc.key))).toEqual([404, "2", "58", "pro"]);
    await db.update(accounts).set({ tier: "registered" }).where(eq(accounts.id, acc.accountId));
    expect(headersOf(await ask("/v1/paid?name=x", acc.key))).toEqual([400, "2", "57", "registered"]);
    await db.update(accounts).set({ tier: "pro" }).where(eq(accounts.id, acc.accountId));
    expect(headersOf(await ask("/v1/paid?name=bb&cost=5", acc.key))).toEqual([402, "2", "56", "pro"]);
  });
});
