import dns from "node:dns/promises";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import pg from "pg";
import { and, eq } from "drizzle-orm";
import { POST as watchPost, GET as watchGet, DELETE as watchDelete } from "@/app/v1/watch/route";
import { POST as rotatePost } from "@/app/v1/watch/rotate-secret/route";
import { GET as deliveriesGet } from "@/app/v1/watch/deliveries/route";
import { POST as grantPost } from "@/app/api/admin/watch-limit/route";
import { watches } from "@/lib/db/schema";
import type { Db } from "@/lib/db/client";
import {
  watchCreateResponseSchema,
  watchDeleteResponseSchema,
  watchDeliveriesResponseSchema,
  watchListResponseSchema,
  watchRotateResponseSchema,
} from "@/lib/schemas/watch";
import { resetDb, untilWaitingForLock } from "../helpers/db";
import { keyedAccount, loadFixtureCatalog, request, walletRemaining } from "../helpers/catalog-fixture";

let db: Db;
beforeEach(async () => {
  db = await resetDb();
  await loadFixtureCatalog(db);
});
afterEach(() => {
  vi.restoreAllMocks();
  process.env.OUTBOUND_ALLOW_HOSTS = "127.0.0.1";
});

const SERVER = "io.github.acme/weather";
const HOOK = "https://127.0.0.1:8443/hooks/catalog";
const post = (body: unknown, key?: string) => watchPost(request("/v1/watch", { body, key }));
const list = (key?: string) => watchGet(request("/v1/watch", { key }));
const del = (id: string, key?: string) => watchDelete(request(`/v1/watch?id=${encodeURIComponent(id)}`, { key, method: "DELETE" }));

describe("POST /v1/watch", () => {
  it("creates a watch with every event kind by default, returns its secret once, and charges 10 credits", async () => {
    const a = await keyedAccount(db, { credits: 100 });
    const res = await post({ server_name: SERVER, webhook_url: HOOK, label: "prod agents" }, a.key);
    expect(res.status).toBe(200);
    const body = watchCreateResponseSchema.parse(await res.json());
    expect(body.created).toBe(true);
    expect(body.secret).toMatch(/^whsec_/);
    expect(body.watch).toMatchObject({
      server_name: SERVER,
      webhook_url: HOOK,
      email: null,
      label: "prod agents",
      status: "active",
      events: ["remote_down", "remote_up", "health_change", "verified_change", "security"],
    });
    expect(body.watch.id).toMatch(/^wat_[0-9a-z]{16}$/);
    expect(res.headers.get("x-credits-remaining")).toBe("90");
    expect(await walletRemaining(db, a.accountId)).toBe(90);
    const [row] = await db.select().from(watches).where(eq(watches.id, body.watch.id));
    expect(row.secret).toBe(body.secret);
    expect(row.keyId).toBe(a.keyId);
  });

  it("updates the same key's watch of the same server and target: no new secret, no charge; the same server again that day is free", async () => {
    const a = await keyedAccount(db, { credits: 100 });
    const first = watchCreateResponseSchema.parse(await (await post({ server_name: SERVER, webhook_url: HOOK }, a.key)).json());
    const res = await post({ server_name: SERVER, webhook_url: HOOK, events: ["security", "remote_down", "security"], label: "x" }, a.key);
    expect(res.status).toBe(200);
    const body = watchCreateResponseSchema.parse(await res.json());
    expect(body.created).toBe(false);
    expect(body.secret).toBeUndefined();
    expect(body.watch.id).toBe(first.watch.id);
    expect(body.watch.events).toEqual(["remote_down", "security"]);
    expect(body.watch.label).toBe("x");
    expect(await walletRemaining(db, a.accountId)).toBe(90);
    // another target of the same server is another watch, free the same UTC day (a repeat of the same server)
    const email = watchCreateResponseSchema.parse(await (await post({ server_name: SERVER, email: "Ops@Example.test" }, a.key)).json());
    expect(email.created).toBe(true);
    expect(email.watch.email).toBe("ops@example.test");
    expect(await walletRemaining(db, a.accountId)).toBe(90);
    // as is watching it again after a delete; another server is charged
    expect((await del(email.watch.id, a.key)).status).toBe(200);
    expect((await post({ server_name: SERVER, email: "ops@example.test" }, a.key)).status).toBe(200);
    expect(await walletRemaining(db, a.accountId)).toBe(90);
    expect((await post({ server_name: "io.github.bob/no-repo", webhook_url: HOOK }, a.key)).status).toBe(200);
    expect(await walletRemaining(db, a.accountId)).toBe(80);
  });

  it("answers 404 not_found for an unknown or differently cased server name, spending nothing", async () => {
    const a = await keyedAccount(db, { credits: 100 });
    for (const name of ["io.github.acme/nope", "io.github.ACME/weather"]) {
      const res = await post({ server_name: name, webhook_url: HOOK }, a.key);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ ok: false, error: "not_found" });
    }
    expect(await walletRemaining(db, a.accountId)).toBe(100);
  });

  it("answers 403 watch_limit_reached with the Error body at 5 active watches for a free key, and frees a slot on delete", async () => {
    const a = await keyedAccount(db, { credits: 1000 });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await post({ server_name: SERVER, email: `n${i}@example.test` }, a.key);
      expect(res.status).toBe(200);
      ids.push((await res.json()).watch.id);
    }
    const over = await post({ server_name: SERVER, email: "n5@example.test" }, a.key);
    expect(over.status).toBe(403);
    const err = await over.json();
    expect(err).toMatchObject({ ok: false, error: "watch_limit_reached" });
    expect(err.message).toContain("(5)");
    expect(await walletRemaining(db, a.accountId)).toBe(990); // one server, one charge a day
    // updating an existing watch at the limit is still allowed
    expect((await post({ server_name: SERVER, email: "n0@example.test", events: ["security"] }, a.key)).status).toBe(200);
    expect((await del(ids[0], a.key)).status).toBe(200);
    expect((await post({ server_name: SERVER, email: "n5@example.test" }, a.key)).status).toBe(200);
  });

  it("allows 50 active watches on a pro key and refuses the 51st", async () => {
    const a = await keyedAccount(db, { tier: "pro", credits: 10_000 });
    for (let i = 0; i < 50; i++) expect((await post({ server_name: SERVER, email: `p${i}@example.test` }, a.key)).status).toBe(200);
    const over = await post({ server_name: SERVER, email: "p50@example.test" }, a.key);
    expect(over.status).toBe(403);
    expect(await over.json()).toMatchObject({ ok: false, error: "watch_limit_reached" });
  });

  it("gives an account more watches by request (npm run account:watch-limit, operator secret), and takes them back", async () => {
    const a = await keyedAccount(db, { credits: 1000, email: "many@example.test" });
    for (let i = 0; i < 5; i++) expect((await post({ server_name: SERVER, email: `g${i}@example.test` }, a.key)).status).toBe(200);
    expect((await post({ server_name: SERVER, email: "g5@example.test" }, a.key)).status).toBe(403);

    process.env.CRON_SECRET = "grant-secret";
    try {
      const grant = (body: unknown, secret = "grant-secret") =>
        grantPost(request("/api/admin/watch-limit", { body, headers: { authorization: `Bearer ${secret}` } }));
      expect((await grant({ email: "many@example.test", watch_limit: 7 }, "wrong")).status).toBe(401);
      expect((await grant({ email: "nobody@example.test", watch_limit: 7 })).status).toBe(404);
      expect((await grant({ email: "many@example.test", watch_limit: -1 })).status).toBe(400);
      const granted = await grant({ email: "Many@Example.test", watch_limit: 7 });
      expect(granted.status).toBe(200);
      expect(await granted.json()).toMatchObject({ ok: true, account_id: a.accountId, tier: "registered", watch_limit: 7, granted: true });

      for (const i of [5, 6]) expect((await post({ server_name: SERVER, email: `g${i}@example.test` }, a.key)).status).toBe(200);
      const over = await post({ server_name: SERVER, email: "g7@example.test" }, a.key);
      expect(over.status).toBe(403);
      expect((await over.json()).message).toContain("the limit granted to it (7)");

      // back to the tier's limit: the 7 active watches stay, a new one waits until fewer than 5 are active
      expect(await (await grant({ email: "many@example.test", watch_limit: null })).json()).toMatchObject({ watch_limit: 5, granted: false });
      expect((await list(a.key)).status).toBe(200);
      expect((await (await list(a.key)).json()).watches).toHaveLength(7);
      expect((await post({ server_name: SERVER, email: "g7@example.test" }, a.key)).status).toBe(403);
    } finally {
      delete process.env.CRON_SECRET;
    }
  });

  it("keeps the limit under concurrent creations", async () => {
    const a = await keyedAccount(db, { credits: 1000 });
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => post({ server_name: SERVER, email: `c${i}@example.test` }, a.key)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 403, 403, 403]);
    expect((await db.select().from(watches).where(eq(watches.accountId, a.accountId))).length).toBe(5);
    expect(await walletRemaining(db, a.accountId)).toBe(990);
  });

  it("answers 402 and creates nothing when the wallet cannot pay", async () => {
    const a = await keyedAccount(db, { credits: 5 });
    const res = await post({ server_name: SERVER, webhook_url: HOOK }, a.key);
    expect(res.status).toBe(402);
    expect(await res.json()).toMatchObject({ ok: false, error: "payment_required" });
    expect(await db.select().from(watches)).toEqual([]);
  });

  it("answers concurrent identical creations the wallet cannot pay with 402 each: no 500, no watch that does not exist", async () => {
    for (let round = 0; round < 3; round++) {
      const a = await keyedAccount(db, { credits: 5 });
      const results = await Promise.all(Array.from({ length: 8 }, () => post({ server_name: SERVER, webhook_url: HOOK }, a.key)));
      const bodies = await Promise.all(results.map(async (r) => ({ status: r.status, body: await r.json() })));
      expect(bodies.filter((b) => b.status !== 402)).toEqual([]);
      expect(await db.select().from(watches).where(eq(watches.accountId, a.accountId))).toEqual([]);
    }
  });

  it("answers 401 without a valid key", async () => {
    for (const res of [await post({ server_name: SERVER, webhook_url: HOOK }), await post({ server_name: SERVER, webhook_url: HOOK }, "catk_nope")]) {
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ ok: false, error: "unauthorized" });
    }
  });

  it.each([
    ["neither webhook_url nor email", { server_name: SERVER }, "webhook_url, an email"],
    ["no server_name", { webhook_url: HOOK }, "server_name: server_name is required"],
    ["an http: URL", { server_name: SERVER, webhook_url: "http://hooks.example.com/x" }, "webhook_url: webhook_url must use https (http is refused)"],
    ["an ftp: URL", { server_name: SERVER, webhook_url: "ftp://hooks.example.com/x" }, "webhook_url: webhook_url must use https (ftp is refused)"],
    ["an unknown event kind", { server_name: SERVER, webhook_url: HOOK, events: ["server_new"] }, "events"],
    ["an empty events list", { server_name: SERVER, webhook_url: HOOK, events: [] }, "events"],
    ["an unknown field", { server_name: SERVER, webhook_url: HOOK, secret: "whsec_mine" }, "unknown field"],
    ["a malformed e-mail", { server_name: SERVER, email: "not-an-address" }, "email"],
    ["a relative URL", { server_name: SERVER, webhook_url: "/hooks" }, "webhook_url: webhook_url must be an absolute URL"],
    // https without the two slashes parses (WHATWG) but is not what anyone means; the message must not say https is refused
    ["https: without //", { server_name: SERVER, webhook_url: "https:hooks.example.com/x" }, "webhook_url: webhook_url must start with https:// and a host name"],
    ["https:/ with one slash", { server_name: SERVER, webhook_url: "https:/hooks.example.com/x" }, "webhook_url: webhook_url must start with https:// and a host name"],
    ["a webhook_url over 2048 characters", { server_name: SERVER, webhook_url: `https://hooks.example.com/${"p".repeat(2048)}` }, "webhook_url must be at most 2048 characters"],
    ["a URL with credentials", { server_name: SERVER, webhook_url: "https://user:pw@127.0.0.1/x" }, "user name"],
    ["no server_name", { webhook_url: HOOK }, "server_name"],
  ])("answers 400 invalid_request for %s, spending nothing", async (_what, body, message) => {
    const a = await keyedAccount(db, { credits: 100 });
    const res = await post(body, a.key);
    expect(res.status).toBe(400);
    const err = await res.json();
    expect(err).toMatchObject({ ok: false, error: "invalid_request" });
    expect(err.message).toContain(message);
    expect(await walletRemaining(db, a.accountId)).toBe(100);
  });

  it.each([
    ["loopback 127.0.0.1", "https://127.0.0.1/hook", /not a public address/],
    ["10.0.0.0/8", "https://10.1.2.3/hook", /not a public address/],
    ["cloud metadata 169.254.169.254", "https://169.254.169.254/latest/meta-data", /not a public address/],
    ["IPv6 loopback [::1]", "https://[::1]:8443/hook", /not a public address/],
    ["IPv4-mapped loopback", "https://[::ffff:127.0.0.1]/hook", /not a public address/],
    ["localhost", "https://localhost/hook", /loopback name/],
    ["a name under .localhost", "https://app.localhost/hook", /loopback name/],
    // the root names no host, and DNS answers nothing for it
    ["the root alone", "https://./hook", /does not resolve/],
    ["a percent-encoded root", "https://%2e/hook", /does not resolve/],
    ["an ideographic full stop", "https://\u3002/hook", /does not resolve/],
    // fetch refuses these ports before connecting (the Fetch standard's bad ports): such a watch was charged for and
    // every delivery failed with "fetch failed: bad port" for 24 h
    ["a port fetch never connects to (IRC 6666)", "https://93.184.215.14:6666/hook", /port 6666/],
    ["a port fetch never connects to (mail 587)", "https://93.184.215.14:587/hook", /port 587/],
  ])("refuses a webhook_url at %s when it is created (400, nothing spent)", async (_what, url, message) => {
    process.env.OUTBOUND_ALLOW_HOSTS = "";
    const a = await keyedAccount(db, { credits: 100 });
    const res = await post({ server_name: SERVER, webhook_url: url }, a.key);
    expect(res.status).toBe(400);
    const err = await res.json();
    expect(err).toMatchObject({ ok: false, error: "invalid_request" });
    expect(err.message).toMatch(message);
    expect(await db.select().from(watches)).toEqual([]);
    expect(await walletRemaining(db, a.accountId)).toBe(100);
  });

  it("resolves the host name at creation and refuses one that resolves to a private address", async () => {
    process.env.OUTBOUND_ALLOW_HOSTS = "";
    const lookup = vi.spyOn(dns, "lookup").mockImplementation((async (host: string) => {
      if (host === "hooks.internal.example") return [{ address: "93.184.215.14", family: 4 }, { address: "10.0.0.7", family: 4 }];
      if (host === "hooks.public.example") return [{ address: "93.184.215.14", family: 4 }];
      if (host === "gone.example") throw Object.assign(new Error("getaddrinfo ENOTFOUND gone.example"), { code: "ENOTFOUND" });
      throw new Error(`unexpected lookup ${host}`);
    }) as never);
    const a = await keyedAccount(db, { credits: 100 });
    const refused = await post({ server_name: SERVER, webhook_url: "https://hooks.internal.example/x" }, a.key);
    expect(refused.status).toBe(400);
    expect((await refused.json()).message).toContain("resolves to 10.0.0.7");
    const unknown = await post({ server_name: SERVER, webhook_url: "https://gone.example/x" }, a.key);
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).message).toContain("does not resolve");
    const ok = await post({ server_name: SERVER, webhook_url: "https://hooks.public.example/x" }, a.key);
    expect(ok.status).toBe(200);
    expect(lookup).toHaveBeenCalledTimes(3);
  });
});

describe("GET and DELETE /v1/watch", () => {
  it("lists the account's active watches without secrets, and DELETE moves one to unsubscribed", async () => {
    const a = await keyedAccount(db, { credits: 100 });
    const b = await keyedAccount(db, { credits: 100 });
    const w1 = (await (await post({ server_name: SERVER, webhook_url: HOOK }, a.key)).json()).watch;
    const w2 = (await (await post({ server_name: "com.example/remote-only", email: "a@example.test" }, a.key)).json()).watch;
    await post({ server_name: SERVER, webhook_url: HOOK }, b.key);

    const res = await list(a.key);
    expect(res.status).toBe(200);
    const text = await res.clone().text();
    expect(text).not.toContain("whsec_");
    const body = watchListResponseSchema.parse(await res.json());
    expect(body.count).toBe(2);
    expect(body.watches.map((w) => w.id)).toEqual([w1.id, w2.id]);

    // another account's id is a 404, as is an unknown one
    const foreign = await del(w1.id, b.key);
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toMatchObject({ ok: false, error: "not_found" });
    expect((await del("wat_0000000000000000", a.key)).status).toBe(404);
    // no id at all says so
    const noId = await watchDelete(request("/v1/watch", { key: a.key, method: "DELETE" }));
    expect([noId.status, (await noId.json()).message]).toEqual([400, "id: id is required"]);

    const gone = await del(w1.id, a.key);
    expect(gone.status).toBe(200);
    const deleted = watchDeleteResponseSchema.parse(await gone.json());
    expect(deleted.watch).toMatchObject({ id: w1.id, status: "unsubscribed" });
    expect(deleted.watch.unsubscribed_at).not.toBeNull();
    expect(watchListResponseSchema.parse(await (await list(a.key)).json()).watches.map((w) => w.id)).toEqual([w2.id]);
    // a second DELETE is harmless
    expect((await del(w1.id, a.key)).status).toBe(200);
    // watching again after unsubscribing creates a new watch, with a new secret
    const again = watchCreateResponseSchema.parse(await (await post({ server_name: SERVER, webhook_url: HOOK }, a.key)).json());
    expect(again.created).toBe(true);
    expect(again.watch.id).not.toBe(w1.id);
  });

  it("answers concurrent DELETEs of one watch with the one moment it was unsubscribed, and keeps that moment", async () => {
    const a = await keyedAccount(db, { credits: 100 });
    const w = watchCreateResponseSchema.parse(await (await post({ server_name: SERVER, webhook_url: HOOK }, a.key)).json()).watch;
    const answers = await Promise.all([del(w.id, a.key), del(w.id, a.key), del(w.id, a.key)]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    const moments = (await Promise.all(answers.map(async (r) => watchDeleteResponseSchema.parse(await r.json()).watch))).map((x) => x.unsubscribed_at);
    const [stored] = await db.select().from(watches).where(eq(watches.id, w.id));
    expect(new Set(moments)).toEqual(new Set([stored.unsubscribedAt!.toISOString()]));
  });

  it("needs a key (401) and an id (400)", async () => {
    expect((await list()).status).toBe(401);
    expect((await del("wat_0000000000000000")).status).toBe(401);
    const a = await keyedAccount(db, { credits: 100 });
    const res = await watchDelete(request("/v1/watch", { key: a.key, method: "DELETE" }));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ ok: false, error: "invalid_request" });
  });

  it("rotates a watch's secret on request, returning the new one once", async () => {
    const a = await keyedAccount(db, { credits: 100 });
    const created = watchCreateResponseSchema.parse(await (await post({ server_name: SERVER, webhook_url: HOOK }, a.key)).json());
    const res = await rotatePost(request(`/v1/watch/rotate-secret?id=${created.watch.id}`, { key: a.key, method: "POST" }));
    expect(res.status).toBe(200);
    const body = watchRotateResponseSchema.parse(await res.json());
    expect(body.secret).not.toBe(created.secret);
    const [row] = await db.select().from(watches).where(eq(watches.id, created.watch.id));
    expect(row.secret).toBe(body.secret);
    const b = await keyedAccount(db, { credits: 100 });
    expect((await rotatePost(request(`/v1/watch/rotate-secret?id=${created.watch.id}`, { key: b.key, method: "POST" }))).status).toBe(404);
  });

  it("shows a watch's deliveries to its owner only", async () => {
    const a = await keyedAccount(db, { credits: 100 });
    const b = await keyedAccount(db, { credits: 100 });
    const created = watchCreateResponseSchema.parse(await (await post({ server_name: SERVER, webhook_url: HOOK }, a.key)).json());
    const res = await deliveriesGet(request(`/v1/watch/deliveries?id=${created.watch.id}`, { key: a.key }));
    expect(res.status).toBe(200);
    expect(watchDeliveriesResponseSchema.parse(await res.json())).toEqual({ ok: true, watch_id: created.watch.id, count: 0, deliveries: [] });
    expect((await deliveriesGet(request(`/v1/watch/deliveries?id=${created.watch.id}`, { key: b.key }))).status).toBe(404);
  });

  it("takes a deliveries limit of digits only, as the other routes do (not 1e1, 0x5, ' 5' or 5.0)", async () => {
    const a = await keyedAccount(db, { credits: 100 });
    const created = watchCreateResponseSchema.parse(await (await post({ server_name: SERVER, webhook_url: HOOK }, a.key)).json());
    const get = (limit: string) => deliveriesGet(request(`/v1/watch/deliveries?id=${created.watch.id}&limit=${encodeURIComponent(limit)}`, { key: a.key }));
    expect((await get("5")).status).toBe(200);
    for (const limit of ["1e1", "0x5", " 5", "5.0", "", "abc", "0", "101"]) {
      const res = await get(limit);
      expect(res.status, limit).toBe(400);
      expect(await res.json()).toMatchObject({ ok: false, error: "invalid_request", message: expect.stringMatching(/^limit: /) });
    }
  });
});

/**
 * A DELETE of the watch on another connection, changed but not yet committed while `call` runs: the call finds the
 * watch still active and its update waits for the DELETE's row lock, which then commits. The call's answer.
 */
async function racingDelete(watchId: string, call: () => Promise<Response>, at?: Date): Promise<Response> {
  const other = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await other.connect();
  try {
    await other.query("begin");
    const when = at?.toISOString() ?? null;
    await other.query("update watches set status = 'unsubscribed', unsubscribed_at = coalesce($2::timestamptz, now()), updated_at = coalesce($2::timestamptz, now()) where id = $1", [watchId, when]);
    const answer = call();
    await untilWaitingForLock(db);
    await other.query("commit");
    return await answer;
  } finally {
    await other.end();
  }
}

describe.skipIf(process.env.TEST_DB !== "postgres")("POST /v1/watch racing a DELETE of the same watch", () => {
  it("never answers with the unsubscribed watch: a watch deleted while it was being updated is created again", async () => {
    const a = await keyedAccount(db, { credits: 100 });
    const first = watchCreateResponseSchema.parse(await (await post({ server_name: SERVER, webhook_url: HOOK }, a.key)).json());
    const res = await racingDelete(first.watch.id, () => post({ server_name: SERVER, webhook_url: HOOK, label: "again" }, a.key));
    expect(res.status).toBe(200);
    const body = watchCreateResponseSchema.parse(await res.json());
    expect(body.watch.status).toBe("active");
    expect(body.created).toBe(true);
    expect(body.secret).toMatch(/^whsec_/);
    const active = await db.select().from(watches).where(and(eq(watches.accountId, a.accountId), eq(watches.status, "active")));
    expect(active.map((w) => [w.id, w.label])).toEqual([[body.watch.id, "again"]]);
  });
});

describe.skipIf(process.env.TEST_DB !== "postgres")("DELETE /v1/watch racing another DELETE of the same watch", () => {
  it("answers with the unsubscription that committed first and does not move its unsubscribed_at", async () => {
    const a = await keyedAccount(db, { credits: 100 });
    const first = watchCreateResponseSchema.parse(await (await post({ server_name: SERVER, webhook_url: HOOK }, a.key)).json());
    const at = new Date(Date.now() - 60_000);
    const res = await racingDelete(first.watch.id, () => del(first.watch.id, a.key), at);
    expect(res.status).toBe(200);
    const body = watchDeleteResponseSchema.parse(await res.json());
    expect(body.watch).toMatchObject({ status: "unsubscribed", unsubscribed_at: at.toISOString(), updated_at: at.toISOString() });
    const [stored] = await db.select().from(watches).where(eq(watches.id, first.watch.id));
    expect([stored.unsubscribedAt, stored.updatedAt]).toEqual([at, at]);
  });
});

describe.skipIf(process.env.TEST_DB !== "postgres")("POST /v1/watch/rotate-secret racing a DELETE of the same watch", () => {
  it("answers 404, not a new secret for a watch that sends nothing any more", async () => {
    const a = await keyedAccount(db, { credits: 100 });
    const first = watchCreateResponseSchema.parse(await (await post({ server_name: SERVER, webhook_url: HOOK }, a.key)).json());
    const res = await racingDelete(first.watch.id, () => rotatePost(request(`/v1/watch/rotate-secret?id=${first.watch.id}`, { key: a.key, method: "POST" })));
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ ok: false, error: "not_found", message: `watch ${first.watch.id} is unsubscribed` });
    const [stored] = await db.select().from(watches).where(eq(watches.id, first.watch.id));
    expect([stored.status, stored.secret]).toEqual(["unsubscribed", first.secret]);
  });
});
