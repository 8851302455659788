import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import https from "node:https";
import { createHmac } from "node:crypto";
import { pathToFileURL } from "node:url";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { asc, eq, sql } from "drizzle-orm";
import { DELIVERY_LEASE_MS } from "@/lib/config";
import { POST as watchPost, DELETE as watchDelete, GET as watchGet } from "@/app/v1/watch/route";
import { GET as deliveriesGet } from "@/app/v1/watch/deliveries/route";
import { GET as unsubscribeGet, POST as unsubscribePost } from "@/app/watch/unsubscribe/route";
import { GET as confirmGet, POST as confirmPost } from "@/app/watch/confirm/route";
import { changes, watchDeliveries, watchDeliveryAttempts, watches } from "@/lib/db/schema";
import type { Db } from "@/lib/db/client";
import { recordChanges } from "@/lib/harvest/record-changes";
import { runDeliveries, type RunDeliveriesOptions } from "@/lib/watches/run-deliveries";
import { watchCreateResponseSchema, watchDeliveriesResponseSchema, watchEventPayloadSchema, watchListResponseSchema } from "@/lib/schemas/watch";
import { resetDb, untilWaitingForLock } from "../helpers/db";
import { keyedAccount, loadFixtureCatalog, request } from "../helpers/catalog-fixture";
import { startHttpsReceiver, testTls } from "../helpers/https-receiver";
import { mailHeader, mailText, startSmtpSink } from "../helpers/smtp-sink";
import { insertWatch, recordTestChanges as recordRows, serverId } from "../helpers/watch-fixture";

// vitest sets BASE_URL=/ (Vite's), which siteUrl() would otherwise fall back to
process.env.SITE_URL = "https://catalog.example.test";

const SERVER = "io.github.acme/weather";
const OTHER = "com.example/remote-only";
const S = 1000;

let db: Db;
let receiver: Awaited<ReturnType<typeof startHttpsReceiver>>;
let clock: Date;
const now = () => clock;
const deliver = (opts: RunDeliveriesOptions = {}) => runDeliveries(db, { now, timeoutMs: 3000, ...opts });

beforeAll(async () => {
  await testTls();
});
beforeEach(async () => {
  db = await resetDb();
  await loadFixtureCatalog(db);
  receiver = await startHttpsReceiver();
  clock = new Date();
  process.env.OUTBOUND_ALLOW_HOSTS = "127.0.0.1";
});
afterEach(async () => {
  await receiver.close();
  process.env.OUTBOUND_ALLOW_HOSTS = "127.0.0.1";
});

async function createWatch(body: Record<string, unknown>, key: string) {
  const res = await watchPost(request("/v1/watch", { body, key }));
  expect(res.status).toBe(200);
  return watchCreateResponseSchema.parse(await res.json());
}

async function deliveriesOf(watchId: string) {
  return db.select().from(watchDeliveries).where(eq(watchDeliveries.watchId, watchId)).orderBy(asc(watchDeliveries.id));
}

async function attemptsOf(deliveryId: number) {
  return db.select().from(watchDeliveryAttempts).where(eq(watchDeliveryAttempts.deliveryId, deliveryId)).orderBy(asc(watchDeliveryAttempts.attempt));
}

/** Moves the clock to the first pending delivery's next attempt. */
async function advanceToNextAttempt(watchId: string) {
  const pending = (await deliveriesOf(watchId)).find((d) => d.status === "pending");
  if (!pending) throw new Error("nothing pending");
  clock = new Date(Math.max(clock.getTime(), pending.nextAttemptAt.getTime()));
}

/** Records changes and brings the test clock up to the present (their events are due from their commit). */
async function recordTestChanges(...args: Parameters<typeof recordRows>) {
  const rows = await recordRows(...args);
  clock = new Date(Math.max(clock.getTime(), Date.now()));
  return rows;
}

const header = (h: string | string[] | undefined) => (Array.isArray(h) ? h[0] : h) ?? "";

describe("the outbox", () => {
  it("gets one row per matching active watch and channel, in the transaction that records the change", async () => {
    const a = await keyedAccount(db, { credits: 1000, email: "ops@example.test" });
    const all = await createWatch({ server_name: SERVER, webhook_url: receiver.url }, a.key);
    const both = await createWatch({ server_name: SERVER, webhook_url: receiver.url, email: "ops@example.test", events: ["security"] }, a.key);
    const gone = await createWatch({ server_name: SERVER, email: "ops@example.test", label: "gone" }, a.key);
    // an address that has not confirmed gets no row (its webhook would)
    const stranger = await createWatch({ server_name: SERVER, email: "stranger@example.test" }, a.key);
    expect(stranger.watch.email_confirmed).toBe(false);
    await watchDelete(request(`/v1/watch?id=${gone.watch.id}`, { key: a.key, method: "DELETE" }));
    const elsewhere = await createWatch({ server_name: OTHER, webhook_url: receiver.url }, a.key);

    // a transaction that rolls back leaves neither changes nor deliveries
    const sid = await serverId(db, SERVER);
    await expect(
      db.transaction(async (tx) => {
        await recordChanges(tx, [{ kind: "remote_down", serverId: sid, serverName: SERVER, observedAt: new Date(), before: null, after: null }]);
        throw new Error("observation write failed");
      }),
    ).rejects.toThrow("observation write failed");
    const changesBefore = (await db.select().from(changes)).length;
    expect(await db.select().from(watchDeliveries)).toEqual([]);

    expect((await db.select().from(changes)).length).toBe(changesBefore);
    const recorded = await recordTestChanges(db, SERVER, [
      { kind: "remote_down", before: { live: true }, after: { live: false } },
      { kind: "security", before: { advisories: [] }, after: { advisories: [{ id: "GHSA-1" }] } },
      { kind: "server_new" },
    ]);
    const rows = await db.select().from(watchDeliveries).orderBy(asc(watchDeliveries.id));
    expect(rows.map((r) => [r.watchId, r.channel, r.kind, r.changeId])).toEqual([
      [all.watch.id, "webhook", "remote_down", recorded[0].id],
      [all.watch.id, "webhook", "security", recorded[1].id],
      [both.watch.id, "webhook", "security", recorded[1].id],
      [both.watch.id, "email", "security", recorded[1].id],
    ]);
    // both channels of one watch share the event id
    expect(rows[2].eventId).toBe(rows[3].eventId);
    expect(new Set(rows.map((r) => r.eventId)).size).toBe(3);
    expect(rows.every((r) => r.status === "pending" && r.attempts === 0)).toBe(true);
    expect(rows.some((r) => r.watchId === elsewhere.watch.id)).toBe(false);
    const payload = watchEventPayloadSchema.parse(JSON.parse(rows[0].body));
    expect(payload).toEqual({
      id: rows[0].eventId,
      type: "remote_down",
      created_at: recorded[0].createdAt.toISOString(),
      watch_id: all.watch.id,
      server_name: SERVER,
      data: { before: { live: true }, after: { live: false }, card_url: "https://catalog.example.test/v1/server?name=io.github.acme%2Fweather" },
    });
  });
});

describe("narrowing a watch's events", () => {
  it("cancels its queued events of the kinds it no longer asks for, and keeps the rest", async () => {
    const a = await keyedAccount(db, { credits: 1000 });
    const w = await createWatch({ server_name: SERVER, webhook_url: receiver.url }, a.key);
    await recordTestChanges(db, SERVER, [
      { kind: "remote_down", before: { live: true }, after: { live: false } },
      { kind: "security", before: { advisories: [] }, after: { advisories: [{ id: "GHSA-1" }] } },
    ]);
    const narrowed = await watchPost(request("/v1/watch", { body: { server_name: SERVER, webhook_url: receiver.url, events: ["security"] }, key: a.key }));
    expect(narrowed.status).toBe(200);
    const rows = await db.select().from(watchDeliveries).where(eq(watchDeliveries.watchId, w.watch.id)).orderBy(asc(watchDeliveries.id));
    expect(rows.map((r) => [r.kind, r.status])).toEqual([
      ["remote_down", "cancelled"],
      ["security", "pending"],
    ]);
  });

  it.skipIf(process.env.TEST_DB !== "postgres")("sends no event of a dropped kind whose change was being recorded while the watch was narrowed", async () => {
    const a = await keyedAccount(db, { credits: 1000 });
    const w = await createWatch({ server_name: SERVER, webhook_url: receiver.url }, a.key);
    // a harvest transaction records a remote_down and has not committed yet when the owner narrows the watch
    let commit!: () => void;
    let recorded!: () => void;
    const isRecorded = new Promise<void>((r) => (recorded = r));
    const harvest = db.transaction(async (tx) => {
      const id = await serverId(db, SERVER);
      await recordChanges(tx, [{ kind: "remote_down", serverId: id, serverName: SERVER, observedAt: new Date(), before: { live: true }, after: { live: false } }]);
      recorded();
      await new Promise<void>((r) => (commit = r));
    });
    await isRecorded;
    let narrowedDone = false;
    const narrowed = watchPost(request("/v1/watch", { body: { server_name: SERVER, webhook_url: receiver.url, events: ["security"] }, key: a.key })).finally(
      () => (narrowedDone = true),
    );
    // the narrowing either finishes or waits for the harvest's transaction
    await untilWaitingForLock(db, () => narrowedDone);
    commit();
    await harvest;
    expect((await narrowed).status).toBe(200);
    clock = new Date(Date.now());
    await deliver();
    expect(receiver.requests.map((r) => r.headers["x-catalog-event"])).toEqual([]);
    expect((await deliveriesOf(w.watch.id)).map((d) => [d.kind, d.status])).toEqual([["remote_down", "cancelled"]]);
  });
});

describe("webhook delivery", () => {
  it("POSTs over HTTPS with the event headers, the DESIGN §8 payload and a signature made with the watch secret", async () => {
    const a = await keyedAccount(db, { credits: 100 });
    const w = await createWatch({ server_name: SERVER, webhook_url: receiver.url }, a.key);
    await recordTestChanges(db, SERVER, [{ kind: "health_change", before: { health: "healthy" }, after: { health: "issues" } }]);
    const result = await deliver();
    expect(result).toMatchObject({ attempts: 1, delivered: 1, retrying: 0, failed: 0 });
    expect(receiver.requests).toHaveLength(1);
    const [req] = receiver.requests;
    const payload = watchEventPayloadSchema.parse(JSON.parse(req.body.toString("utf8")));
    expect(req.method).toBe("POST");
    expect(req.url).toBe("/hook");
    expect(req.headers["content-type"]).toBe("application/json");
    expect(req.headers["x-catalog-event"]).toBe("health_change");
    expect(req.headers["x-catalog-watch-id"]).toBe(w.watch.id);
    expect(req.headers["x-catalog-delivery"]).toBe(payload.id);
    expect(req.headers["x-catalog-signature"]).toBe(`sha256=${createHmac("sha256", w.secret!).update(req.body).digest("hex")}`);
    expect(payload).toMatchObject({ type: "health_change", watch_id: w.watch.id, server_name: SERVER, data: { before: { health: "healthy" }, after: { health: "issues" } } });

    const [d] = await deliveriesOf(w.watch.id);
    expect(d).toMatchObject({ status: "delivered", attempts: 1, lastStatusCode: 200, lastError: null, leaseToken: null });
    const [attempt] = await attemptsOf(d.id);
    expect(attempt).toMatchObject({ attempt: 1, ok: true, statusCode: 200, error: null, response: "ok" });
    expect(attempt.startedAt.getTime()).toBe(clock.getTime());
    // nothing is sent twice
    expect(await deliver()).toMatchObject({ attempts: 0 });
    expect(receiver.requests).toHaveLength(1);
  });

  it("signs with the current secret: a rotation applies to queued events", async () => {
    const a = await keyedAccount(db, { credits: 100 });
    const w = await createWatch({ server_name: SERVER, webhook_url: receiver.url }, a.key);
    await recordTestChanges(db, SERVER, [{ kind: "remote_up" }]);
    const { POST: rotate } = await import("@/app/v1/watch/rotate-secret/route");
    const rotated = await (await rotate(request(`/v1/watch/rotate-secret?id=${w.watch.id}`, { key: a.key, method: "POST" }))).json();
    await deliver();
    const [req] = receiver.requests;
    expect(req.headers["x-catalog-signature"]).toBe(`sha256=${createHmac("sha256", rotated.secret).update(req.body).digest("hex")}`);
    expect(req.headers["x-catalog-signature"]).not.toBe(`sha256=${createHmac("sha256", w.secret!).update(req.body).digest("hex")}`);
  });

  it("retries a receiver that answers 500 five times on the backoff schedule, and delivers on the sixth attempt", async () => {
    let calls = 0;
    receiver.setHandler((_req, res) => {
      calls++;
      res.writeHead(calls <= 5 ? 500 : 200).end(calls <= 5 ? "database down" : "thanks");
    });
    const a = await keyedAccount(db, { credits: 100 });
    const w = await createWatch({ server_name: SERVER, webhook_url: receiver.url }, a.key);
    await recordTestChanges(db, SERVER, [{ kind: "remote_down" }]);
    const t0 = clock.getTime();
    const expectedGaps = [30, 60, 120, 240, 480];
    expect(await deliver()).toMatchObject({ attempts: 1, retrying: 1 });
    let at = t0;
    for (const gap of expectedGaps) {
      // one second early: nothing is due
      clock = new Date(at + (gap - 1) * S);
      expect((await deliver()).attempts).toBe(0);
      at += gap * S;
      clock = new Date(at);
      expect((await deliver()).attempts).toBe(1);
    }
    const [d] = await deliveriesOf(w.watch.id);
    expect(d).toMatchObject({ status: "delivered", attempts: 6, lastStatusCode: 200 });
    const attempts = await attemptsOf(d.id);
    expect(attempts.map((x) => x.statusCode)).toEqual([500, 500, 500, 500, 500, 200]);
    expect(attempts.map((x) => x.error)).toEqual(["HTTP 500", "HTTP 500", "HTTP 500", "HTTP 500", "HTTP 500", null]);
    expect(attempts[0].response).toBe("database down");
    // the owner reads the receiver's answer too
    const view = watchDeliveriesResponseSchema.parse(await (await deliveriesGet(request(`/v1/watch/deliveries?id=${w.watch.id}`, { key: a.key }))).json());
    expect(view.deliveries[0].attempt_log.map((x) => x.response)).toEqual(attempts.map((x) => x.response ?? null));
    expect(view.deliveries[0].attempt_log[0].response).toBe("database down");
    expect(attempts.map((x) => (x.startedAt.getTime() - t0) / S)).toEqual([0, 30, 90, 210, 450, 930]);
    // the receiver saw the same delivery id every time
    expect(new Set(receiver.requests.map((r) => r.headers["x-catalog-delivery"])).size).toBe(1);
    expect(receiver.requests).toHaveLength(6);
  });

  it("counts a 2xx whose answer body never ends as delivered, and a 500 whose body never ends as HTTP 500, not a timeout", async () => {
    // the status line is the receiver's answer; its body is only logged (an excerpt), so a body that trickles
    // past the timeout must not turn an accepted event into a failure that is sent again
    let status = 200;
    receiver.setHandler((_req, res) => {
      res.writeHead(status);
      res.write("accepted");
    });
    const a = await keyedAccount(db, { credits: 100 });
    const w = await createWatch({ server_name: SERVER, webhook_url: receiver.url }, a.key);
    await recordTestChanges(db, SERVER, [{ kind: "remote_down" }]);
    // each send waits out its whole timeout, the body never ending
    expect(await deliver({ timeoutMs: 1000 })).toMatchObject({ attempts: 1, delivered: 1, retrying: 0 });
    const [d] = await deliveriesOf(w.watch.id);
    expect(d).toMatchObject({ status: "delivered", attempts: 1, lastStatusCode: 200, lastError: null });
    expect((await attemptsOf(d.id))[0]).toMatchObject({ ok: true, statusCode: 200, response: "accepted" });

    status = 500;
    await recordTestChanges(db, SERVER, [{ kind: "remote_up" }]);
    expect(await deliver({ timeoutMs: 1000 })).toMatchObject({ attempts: 1, delivered: 0, retrying: 1 });
    const second = (await deliveriesOf(w.watch.id))[1];
    expect(second).toMatchObject({ status: "pending", lastStatusCode: 500, lastError: "HTTP 500" });
    expect(receiver.requests).toHaveLength(2);
  });

  it("sends an event once to a receiver whose answer holds a NUL byte, and logs that answer", async () => {
    // Postgres text cannot hold U+0000: storing the answer as it came failed after every send, and the event,
    // handed back as unsent, went out again at once, hundreds of times a second for the whole run
    receiver.setHandler((_req, res) => res.writeHead(200).end("ok\u0000\u0000done"));
    const a = await keyedAccount(db, { credits: 100 });
    const w = await createWatch({ server_name: SERVER, webhook_url: receiver.url }, a.key);
    await recordTestChanges(db, SERVER, [{ kind: "remote_down" }]);
    expect(await deliver({ budgetMs: 2000 })).toMatchObject({ attempts: 1, delivered: 1 });
    expect(receiver.requests).toHaveLength(1);
    const [d] = await deliveriesOf(w.watch.id);
    expect(d).toMatchObject({ status: "delivered", attempts: 1, lastStatusCode: 200 });
    expect((await attemptsOf(d.id))[0]).toMatchObject({ ok: true, response: "ok\ufffd\ufffddone" });
  });

  it("does not send an event again in the same run when its attempt could not be recorded; it waits for its lease", async () => {
    // any failure after a send (here the attempt log refuses rows) handed the lane back as unsent, and the next
    // claim of the same run sent the event again at once, for as long as the run lasted
    const a = await keyedAccount(db, { credits: 100 });
    const w = await createWatch({ server_name: SERVER, webhook_url: receiver.url }, a.key);
    await recordTestChanges(db, SERVER, [{ kind: "remote_down" }]);
    await db.execute(sql`create or replace function refuse_attempt() returns trigger language plpgsql as $$ begin raise exception 'attempt log refused'; end $$`);
    await db.execute(sql`create trigger refuse_attempt before insert on watch_delivery_attempts for each row execute function refuse_attempt()`);
    try {
      expect(await deliver({ budgetMs: 1500 })).toMatchObject({ attempts: 1 });
      expect(receiver.requests).toHaveLength(1);
    } finally {
      // the test database outlives this test (a worker's Postgres database): nothing of it may stay behind
      await db.execute(sql`drop trigger if exists refuse_attempt on watch_delivery_attempts`);
      await db.execute(sql`drop function if exists refuse_attempt()`);
    }
    // once the lease has run out, the next run sends it again (at least once) and records it
    clock = new Date(clock.getTime() + DELIVERY_LEASE_MS + S);
    expect(await deliver({ budgetMs: 1500 })).toMatchObject({ attempts: 1, delivered: 1 });
    expect(receiver.requests).toHaveLength(2);
    expect((await deliveriesOf(w.watch.id))[0]).toMatchObject({ status: "delivered", attempts: 1 });
  });

  it("retries a receiver that never answers for 24 h, then gives up with every attempt visible, and the next event goes out", async () => {
    // each of its 15 attempts waits out the timeout in real time (AbortSignal.timeout): a short one keeps the test short
    const timeoutMs = 200;
    const timedOut = `timeout: no answer within ${timeoutMs} ms`;
    receiver.setHandler(() => {
      /* never answers */
    });
    const a = await keyedAccount(db, { credits: 100 });
    const w = await createWatch({ server_name: SERVER, webhook_url: receiver.url }, a.key);
    const [first] = await recordTestChanges(db, SERVER, [{ kind: "remote_down" }]);
    await recordTestChanges(db, SERVER, [{ kind: "remote_up" }]);
    const [d1, d2] = await deliveriesOf(w.watch.id);
    const t0 = clock.getTime();
    for (let i = 0; i < 30; i++) {
      await deliver({ timeoutMs });
      const [cur] = await deliveriesOf(w.watch.id);
      if (cur.status !== "pending") break;
      await advanceToNextAttempt(w.watch.id);
    }
    const [given] = await deliveriesOf(w.watch.id);
    expect(given.status).toBe("failed");
    expect(given.lastError).toBe(timedOut);
    const attempts = await attemptsOf(d1.id);
    expect(attempts).toHaveLength(14);
    expect(attempts.every((x) => !x.ok && x.statusCode === null && x.error === timedOut)).toBe(true);
    const starts = attempts.map((x) => x.startedAt.getTime());
    const gaps = starts.slice(1).map((t, i) => (t - starts[i]) / S);
    expect(gaps.slice(0, 12)).toEqual([30, 60, 120, 240, 480, 960, 1920, 3840, 7680, 15360, 21600, 21600]);
    // the last attempt falls on the 24 h mark after the event was queued
    expect(starts.at(-1)).toBe(first.createdAt.getTime() + 24 * 3600 * S);
    expect(starts[0]).toBe(t0);
    // the later event waited the whole time (order per watch); then, its own 24 h also over, it had one attempt
    const d2Attempts = await attemptsOf(d2.id);
    expect(d2Attempts).toHaveLength(1);
    expect(d2Attempts[0].startedAt.getTime()).toBeGreaterThanOrEqual(starts.at(-1)!);
    // (an attempt cut off by the timeout may not reach the receiver at all; those that did came in order)
    const seen = receiver.requests.map((r) => header(r.headers["x-catalog-delivery"]));
    expect(seen.length).toBeGreaterThan(0);
    const firstD2 = seen.indexOf(d2.eventId);
    expect(firstD2 === -1 ? seen : seen.slice(0, firstD2)).toEqual(Array(firstD2 === -1 ? seen.length : firstD2).fill(d1.eventId));
    expect(seen.slice(firstD2 === -1 ? seen.length : firstD2).every((id) => id === d2.eventId)).toBe(true);
    // its own window ends a moment after the first one's: one last try is due then
    const [, d2now] = await deliveriesOf(w.watch.id);
    expect(d2now).toMatchObject({ status: "pending", attempts: 1 });
    expect(d2now.nextAttemptAt.getTime()).toBe(d2.createdAt.getTime() + 24 * 3600 * S);

    // visible to the owner
    const res = await deliveriesGet(request(`/v1/watch/deliveries?id=${w.watch.id}`, { key: a.key }));
    const view = watchDeliveriesResponseSchema.parse(await res.json());
    const failed = view.deliveries.find((x) => x.event_id === d1.eventId)!;
    expect(failed).toMatchObject({ status: "failed", attempts: 14, next_attempt_at: null, last_error: timedOut });
    expect(failed.attempt_log).toHaveLength(14);
    expect(failed.attempt_log[13]).toMatchObject({ attempt: 14, ok: false, status_code: null });

    // the receiver recovers: the waiting event, then a new one, go out in order
    receiver.setHandler((_req, res) => res.writeHead(204).end());
    const [fresh] = await recordTestChanges(db, SERVER, [{ kind: "health_change" }]);
    clock = new Date(Math.max(clock.getTime(), d2now.nextAttemptAt.getTime()));
    expect(await deliver()).toMatchObject({ attempts: 2, delivered: 2 });
    expect(receiver.requests.slice(-2).map((r) => r.headers["x-catalog-event"])).toEqual(["remote_up", "health_change"]);
    expect((await deliveriesOf(w.watch.id)).map((d) => [d.changeId, d.status])).toEqual([
      [first.id, "failed"],
      [d2.changeId, "delivered"],
      [fresh.id, "delivered"],
    ]);
  });

  it("keeps order per watch: a failing event holds back its watch's later events, not other watches'", async () => {
    const other = await startHttpsReceiver();
    try {
      let fail = true;
      receiver.setHandler((_req, res) => res.writeHead(fail ? 503 : 200).end());
      const a = await keyedAccount(db, { credits: 100 });
      const w1 = await createWatch({ server_name: SERVER, webhook_url: receiver.url }, a.key);
      const w2 = await createWatch({ server_name: SERVER, webhook_url: other.url }, a.key);
      await recordTestChanges(db, SERVER, [{ kind: "remote_down" }, { kind: "remote_up" }, { kind: "health_change" }]);
      await deliver();
      expect(receiver.requests.map((r) => r.headers["x-catalog-event"])).toEqual(["remote_down"]);
      expect(other.requests.map((r) => r.headers["x-catalog-event"])).toEqual(["remote_down", "remote_up", "health_change"]);
      fail = false;
      clock = new Date(clock.getTime() + 30 * S);
      await deliver();
      expect(receiver.requests.map((r) => r.headers["x-catalog-event"])).toEqual(["remote_down", "remote_down", "remote_up", "health_change"]);
      expect((await deliveriesOf(w1.watch.id)).map((d) => d.status)).toEqual(["delivered", "delivered", "delivered"]);
      expect((await deliveriesOf(w2.watch.id)).map((d) => d.attempts)).toEqual([1, 1, 1]);
    } finally {
      await other.close();
    }
  });

  it("sends nothing for an unsubscribed watch: DELETE cancels its pending events", async () => {
    const a = await keyedAccount(db, { credits: 100 });
    const w = await createWatch({ server_name: SERVER, webhook_url: receiver.url }, a.key);
    await recordTestChanges(db, SERVER, [{ kind: "remote_down" }]);
    await watchDelete(request(`/v1/watch?id=${w.watch.id}`, { key: a.key, method: "DELETE" }));
    expect(await deliver()).toMatchObject({ attempts: 0 });
    expect(receiver.requests).toHaveLength(0);
    expect((await deliveriesOf(w.watch.id)).map((d) => d.status)).toEqual(["cancelled"]);
    // and later changes make no rows for it
    await recordTestChanges(db, SERVER, [{ kind: "remote_up" }]);
    expect(await deliveriesOf(w.watch.id)).toHaveLength(1);
  });

  it("sends nothing a DELETE cancelled after the worker claimed it but before it was sent", async () => {
    // one queue at a time: the second watch's queue is claimed with the first and waits behind its slow send,
    // during which its owner deletes it; the worker must not send what DELETE already cancelled
    const a = await keyedAccount(db, { credits: 100 });
    const b = await keyedAccount(db, { credits: 100 });
    const slow = await createWatch({ server_name: SERVER, webhook_url: `${receiver.url}?slow` }, a.key);
    const gone = await createWatch({ server_name: SERVER, webhook_url: `${receiver.url}?gone` }, b.key);
    let deleted: Promise<Response> | null = null;
    receiver.setHandler((req, res) => {
      if (req.url.endsWith("?slow") && !deleted) {
        deleted = watchDelete(request(`/v1/watch?id=${gone.watch.id}`, { key: b.key, method: "DELETE" }));
        void deleted.then(() => res.writeHead(200).end("ok"));
        return;
      }
      res.writeHead(200).end("ok");
    });
    await recordTestChanges(db, SERVER, [{ kind: "remote_down" }]);
    await deliver({ concurrency: 1 });
    expect((await deleted!)?.status).toBe(200);
    expect(receiver.requests.map((r) => r.url)).toEqual(["/hook?slow"]);
    expect((await deliveriesOf(gone.watch.id)).map((d) => [d.status, d.attempts])).toEqual([["cancelled", 0]]);
    expect((await deliveriesOf(slow.watch.id)).map((d) => d.status)).toEqual(["delivered"]);
  });

  it("skips an event whose kind the watch dropped after the worker claimed it, and sends the rest in order at once", async () => {
    const a = await keyedAccount(db, { credits: 100 });
    const w = await createWatch({ server_name: SERVER, webhook_url: receiver.url }, a.key);
    let narrowed: Promise<Response> | null = null;
    receiver.setHandler((_req, res) => {
      if (!narrowed) {
        // while the first event is being sent, the owner narrows the watch to remote_down and remote_up
        narrowed = watchPost(request("/v1/watch", { body: { server_name: SERVER, webhook_url: receiver.url, events: ["remote_down", "remote_up"] }, key: a.key }));
        void narrowed.then(() => res.writeHead(200).end("ok"));
        return;
      }
      res.writeHead(200).end("ok");
    });
    await recordTestChanges(db, SERVER, [{ kind: "remote_down" }, { kind: "health_change" }, { kind: "remote_up" }]);
    await deliver();
    expect((await narrowed!)?.status).toBe(200);
    expect(receiver.requests.map((r) => r.headers["x-catalog-event"])).toEqual(["remote_down", "remote_up"]);
    expect((await deliveriesOf(w.watch.id)).map((d) => d.status)).toEqual(["delivered", "cancelled", "delivered"]);
  });

  it("sends the rest at once when the event being sent is of a kind the watch dropped during its send", async () => {
    const a = await keyedAccount(db, { credits: 100 });
    const w = await createWatch({ server_name: SERVER, webhook_url: receiver.url }, a.key);
    let narrowed: Promise<Response> | null = null;
    receiver.setHandler((_req, res) => {
      if (!narrowed) {
        // while the health_change is being sent, the owner narrows the watch to remote_down
        narrowed = watchPost(request("/v1/watch", { body: { server_name: SERVER, webhook_url: receiver.url, events: ["remote_down"] }, key: a.key }));
        void narrowed.then(() => res.writeHead(200).end("ok"));
        return;
      }
      res.writeHead(200).end("ok");
    });
    await recordTestChanges(db, SERVER, [{ kind: "health_change" }, { kind: "remote_down" }]);
    await deliver();
    expect((await narrowed!)?.status).toBe(200);
    // the one in flight reached the receiver; the next one goes out in the same run, not a lease (60 s) later
    expect(receiver.requests.map((r) => r.headers["x-catalog-event"])).toEqual(["health_change", "remote_down"]);
    expect((await deliveriesOf(w.watch.id)).map((d) => d.status)).toEqual(["cancelled", "delivered"]);
  });

  it("signs with a secret rotated after the worker claimed the event but before it was sent", async () => {
    const { POST: rotate } = await import("@/app/v1/watch/rotate-secret/route");
    const a = await keyedAccount(db, { credits: 100 });
    const b = await keyedAccount(db, { credits: 100 });
    await createWatch({ server_name: SERVER, webhook_url: `${receiver.url}?slow` }, a.key);
    const w = await createWatch({ server_name: SERVER, webhook_url: `${receiver.url}?rotated` }, b.key);
    let rotated: Promise<{ secret: string }> | null = null;
    receiver.setHandler((req, res) => {
      if (req.url.endsWith("?slow") && !rotated) {
        rotated = rotate(request(`/v1/watch/rotate-secret?id=${w.watch.id}`, { key: b.key, method: "POST" })).then((r) => r.json());
        void rotated.then(() => res.writeHead(200).end("ok"));
        return;
      }
      res.writeHead(200).end("ok");
    });
    await recordTestChanges(db, SERVER, [{ kind: "remote_up" }]);
    await deliver({ concurrency: 1 });
    const { secret } = await rotated!;
    const req = receiver.requests.find((r) => r.url.endsWith("?rotated"))!;
    expect(req.headers["x-catalog-signature"]).toBe(`sha256=${createHmac("sha256", secret).update(req.body).digest("hex")}`);
  });
});

describe("delivery triggers", () => {
  it("the cron route needs the cron secret and sends what is due", async () => {
    const { GET: cronDeliver } = await import("@/app/api/cron/deliver/route");
    process.env.CRON_SECRET = "test-cron-secret";
    try {
      const a = await keyedAccount(db, { credits: 100 });
      await createWatch({ server_name: SERVER, webhook_url: receiver.url }, a.key);
      await recordTestChanges(db, SERVER, [{ kind: "remote_down" }]);
      const refused = await cronDeliver(request("/api/cron/deliver", { headers: { authorization: "Bearer wrong" } }));
      expect(refused.status).toBe(401);
      expect(receiver.requests).toHaveLength(0);
      const res = await cronDeliver(request("/api/cron/deliver", { headers: { authorization: "Bearer test-cron-secret" } }));
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ ok: true, attempts: 1, delivered: 1 });
      expect(receiver.requests).toHaveLength(1);
    } finally {
      delete process.env.CRON_SECRET;
    }
  });

  it("a run with a deadline (the cron route on Vercel) starts no send that could outlast it, and claims nothing more", async () => {
    // the budget only stops claiming: a lane claimed just before it ran out kept sending for up to its lease, past
    // the route's maxDuration, where the platform cut the send off unrecorded
    receiver.setHandler((_req, res) => setTimeout(() => res.writeHead(200).end("ok"), 400));
    const a = await keyedAccount(db, { credits: 100 });
    const w = await createWatch({ server_name: SERVER, webhook_url: receiver.url }, a.key);
    for (let i = 0; i < 8; i++) await recordTestChanges(db, SERVER, [{ kind: i % 2 ? "remote_up" : "remote_down" }]);
    const r = await deliver({ timeoutMs: 1000, leaseMs: 5000, budgetMs: 10_000, deadlineMs: 2500 });
    // a send (1 s timeout + 1 s) starts only before 0.5 s: the first one, perhaps a second
    expect(r.elapsedMs).toBeLessThanOrEqual(2500);
    expect(r.attempts).toBeGreaterThanOrEqual(1);
    expect(r.attempts + r.released).toBe(8);
    // handed back once, not claimed and handed back again until the budget ran out
    expect(r.claims).toBeLessThanOrEqual(2);
    const rows = await deliveriesOf(w.watch.id);
    expect(rows.filter((d) => d.status === "delivered")).toHaveLength(r.attempts);
    expect(rows.filter((d) => d.status === "pending" && d.leaseToken === null)).toHaveLength(r.released);
    // the next run sends the rest, in order (the receiver answers at once now: its delay only mattered to the deadline)
    receiver.setHandler((_req, res) => res.writeHead(200).end("ok"));
    expect(await deliver({ timeoutMs: 1000 })).toMatchObject({ delivered: r.released });
    expect(receiver.requests.map((q) => q.headers["x-catalog-delivery"])).toEqual(rows.map((d) => d.eventId));
  });

  it("the server's timer sends new events without being asked, and stops", async () => {
    const { startDeliveryTimer } = await import("@/lib/watches/delivery-timer");
    const a = await keyedAccount(db, { credits: 100 });
    await createWatch({ server_name: SERVER, webhook_url: receiver.url }, a.key);
    const stop = startDeliveryTimer(db, 100);
    try {
      await recordTestChanges(db, SERVER, [{ kind: "remote_down" }, { kind: "remote_up" }]);
      const end = Date.now() + 20_000;
      while (receiver.requests.length < 2 && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
      expect(receiver.requests.map((r) => r.headers["x-catalog-event"])).toEqual(["remote_down", "remote_up"]);
    } finally {
      stop();
    }
    await new Promise((r) => setTimeout(r, 300));
    await recordTestChanges(db, SERVER, [{ kind: "health_change" }]);
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.requests).toHaveLength(2);
  });
});

describe("upkeep", () => {
  it("prunes deliveries that finished over 30 days ago with their attempts, never pending ones", async () => {
    const { runMaintenance } = await import("@/lib/services/run-maintenance");
    receiver.setHandler((_req, res) => res.writeHead(500).end());
    const a = await keyedAccount(db, { credits: 100 });
    const w = await createWatch({ server_name: SERVER, webhook_url: receiver.url }, a.key);
    const other = await createWatch({ server_name: OTHER, webhook_url: receiver.url }, a.key);
    await recordTestChanges(db, SERVER, [{ kind: "remote_down" }]);
    await recordTestChanges(db, OTHER, [{ kind: "remote_down" }]);
    receiver.setHandler((req, res) => res.writeHead(req.headers["x-catalog-watch-id"] === w.watch.id ? 200 : 500).end());
    await deliver();
    const [done] = await deliveriesOf(w.watch.id);
    const [stuck] = await deliveriesOf(other.watch.id);
    expect([done.status, stuck.status]).toEqual(["delivered", "pending"]);
    const DAY = 86_400_000;
    expect((await runMaintenance(db, new Date(done.finishedAt!.getTime() + 29 * DAY))).deliveries_pruned).toBe(0);
    expect((await runMaintenance(db, new Date(done.finishedAt!.getTime() + 31 * DAY))).deliveries_pruned).toBe(1);
    expect((await db.select().from(watchDeliveries)).map((d) => d.id)).toEqual([stuck.id]);
    expect((await db.select().from(watchDeliveryAttempts)).map((x) => x.deliveryId)).toEqual([stuck.id]);
  });
});

describe("webhook destinations are checked at delivery time", () => {
  async function attemptOnce(url: string) {
    const a = await keyedAccount(db, { credits: 100 });
    const w = await insertWatch(db, { accountId: a.accountId, serverName: SERVER, webhookUrl: url });
    await recordTestChanges(db, SERVER, [{ kind: "remote_down" }]);
    await deliver();
    const [d] = await deliveriesOf(w.id);
    return { d, attempts: await attemptsOf(d.id) };
  }

  it.each([
    ["127.0.0.1", (port: number) => `https://127.0.0.1:${port}/hook`, "127.0.0.1"],
    ["localhost (a name resolving to loopback)", (port: number) => `https://localhost:${port}/hook`, "localhost"],
    ["[::1]", (port: number) => `https://[::1]:${port}/hook`, "::1"],
    ["::ffff:127.0.0.1", (port: number) => `https://[::ffff:127.0.0.1]:${port}/hook`, "::ffff:7f00:1"],
  ])("refuses %s without connecting, records the attempt and retries later", async (_what, url, host) => {
    process.env.OUTBOUND_ALLOW_HOSTS = "";
    const { d, attempts } = await attemptOnce(url(receiver.port));
    expect(receiver.requests).toHaveLength(0);
    expect(d).toMatchObject({ status: "pending", attempts: 1 });
    expect(attempts).toHaveLength(1);
    expect(attempts[0].ok).toBe(false);
    expect(attempts[0].error).toMatch(new RegExp(`^blocked: refused to connect to ${host.replace(/[.[\]:]/g, "\\$&")}`));
  });

  it("refuses a name that resolved to an allowed address at creation but not at delivery (rebinding)", async () => {
    process.env.OUTBOUND_ALLOW_HOSTS = "localhost";
    const a = await keyedAccount(db, { credits: 100 });
    const w = await createWatch({ server_name: SERVER, webhook_url: `https://localhost:${receiver.port}/hook` }, a.key);
    process.env.OUTBOUND_ALLOW_HOSTS = "";
    await recordTestChanges(db, SERVER, [{ kind: "remote_down" }]);
    await deliver();
    const [d] = await deliveriesOf(w.watch.id);
    expect(d.lastError).toMatch(/^blocked: refused to connect to localhost \((127\.0\.0\.1|::1)\)/);
    expect(receiver.requests).toHaveLength(0);
  });

  it("never follows a redirect, to a private address or anywhere else", async () => {
    const target = await startHttpsReceiver();
    try {
      let location = "https://169.254.169.254/latest/meta-data/";
      receiver.setHandler((_req, res) => res.writeHead(302, { location }).end());
      const { d, attempts } = await attemptOnce(receiver.url);
      expect(attempts[0]).toMatchObject({ ok: false, statusCode: 302, error: "redirect not followed: HTTP 302 to https://169.254.169.254/latest/meta-data/" });
      expect(d.status).toBe("pending");
      // a redirect to an allowed local receiver is not followed either
      location = target.url;
      receiver.setHandler((_req, res) => res.writeHead(307, { location }).end());
      clock = new Date(clock.getTime() + 30 * S);
      await deliver();
      expect(target.requests).toHaveLength(0);
      expect(receiver.requests).toHaveLength(2);
      expect((await attemptsOf(d.id)).map((x) => x.statusCode)).toEqual([302, 307]);
    } finally {
      await target.close();
    }
  });
});

describe("the documented receiver (docs/webhooks.md)", () => {
  it("verifies real deliveries with the documented recipe and rejects a body changed by one byte", async () => {
    const doc = fs.readFileSync(path.join(process.cwd(), "docs/webhooks.md"), "utf8");
    const block = /```js\n(\/\/ receiver\.mjs[\s\S]*?)```/.exec(doc);
    expect(block, "docs/webhooks.md has the receiver.mjs block").not.toBeNull();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "receiver-doc-"));
    const file = path.join(dir, "receiver.mjs");
    fs.writeFileSync(file, block![1]);
    const mod = await import(/* @vite-ignore */ pathToFileURL(file).href);

    const a = await keyedAccount(db, { credits: 100 });
    const tlsPems = await testTls();
    const events: { type: string }[] = [];
    let secret = "";
    const docServer = https.createServer({ key: tlsPems.key, cert: tlsPems.cert }, (req, res) => mod.catalogWebhookHandler(secret, (e: { type: string }) => events.push(e))(req, res));
    await new Promise<void>((resolve) => docServer.listen(0, "127.0.0.1", resolve));
    const port = (docServer.address() as { port: number }).port;
    try {
      const w = await createWatch({ server_name: SERVER, webhook_url: `https://127.0.0.1:${port}/` }, a.key);
      secret = w.secret!;
      await recordTestChanges(db, SERVER, [{ kind: "security", after: { advisories: [{ id: "GHSA-x" }] } }, { kind: "remote_down" }]);
      expect(await deliver()).toMatchObject({ delivered: 2, failed: 0, retrying: 0 });
      expect(events.map((e) => e.type)).toEqual(["security", "remote_down"]);
      const attempts = await db.select().from(watchDeliveryAttempts);
      expect(attempts.map((x) => x.statusCode)).toEqual([204, 204]);

      // the recipe on its own: the stored body verifies; one byte changed does not; nor does another secret
      const [d] = await deliveriesOf(w.watch.id);
      const body = Buffer.from(d.body);
      const signature = `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
      expect(mod.verifyCatalogSignature(body, signature, secret)).toBe(true);
      const altered = Buffer.from(body);
      altered[altered.length - 2] ^= 1;
      expect(mod.verifyCatalogSignature(altered, signature, secret)).toBe(false);
      expect(mod.verifyCatalogSignature(body, signature, "whsec_other")).toBe(false);
      expect(mod.verifyCatalogSignature(body, undefined, secret)).toBe(false);

      // and through the documented handler: a tampered delivery is refused with 401, the event not handled
      const status = await new Promise<number>((resolve, reject) => {
        const req = https.request(
          { host: "127.0.0.1", port, method: "POST", path: "/", ca: tlsPems.cert, headers: { "x-catalog-signature": signature, "x-catalog-delivery": "evt_tampered" } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on("error", reject);
        req.end(altered);
      });
      expect(status).toBe(401);
      expect(events).toHaveLength(2);
    } finally {
      docServer.closeAllConnections();
      await new Promise((resolve) => docServer.close(resolve));
    }
  });
});

async function postTo(port: number, ca: string, headers: Record<string, string>, body: Buffer): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const req = https.request({ host: "127.0.0.1", port, method: "POST", path: "/", ca, headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("the documented receiver against a replay", () => {
  it("handles a captured delivery once when it is sent again under another X-Catalog-Delivery (that header is not signed)", async () => {
    const doc = fs.readFileSync(path.join(process.cwd(), "docs/webhooks.md"), "utf8");
    const block = /```js\n(\/\/ receiver\.mjs[\s\S]*?)```/.exec(doc);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "receiver-replay-"));
    const file = path.join(dir, "receiver.mjs");
    fs.writeFileSync(file, block![1]);
    const mod = await import(/* @vite-ignore */ pathToFileURL(file).href);

    // a genuine delivery, as an eavesdropper or a logging proxy on the way would have kept it
    const a = await keyedAccount(db, { credits: 100 });
    const w = await createWatch({ server_name: SERVER, webhook_url: receiver.url }, a.key);
    await recordTestChanges(db, SERVER, [{ kind: "remote_down" }]);
    expect(await deliver()).toMatchObject({ delivered: 1 });
    const [captured] = receiver.requests;
    const signature = header(captured.headers["x-catalog-signature"]);
    const eventId = header(captured.headers["x-catalog-delivery"]);

    const tlsPems = await testTls();
    const events: { id: string }[] = [];
    const docServer = https.createServer({ key: tlsPems.key, cert: tlsPems.cert }, mod.catalogWebhookHandler(w.secret!, (e: { id: string }) => events.push(e)));
    await new Promise<void>((resolve) => docServer.listen(0, "127.0.0.1", resolve));
    const port = (docServer.address() as { port: number }).port;
    try {
      const sent = { "content-type": "application/json", "x-catalog-signature": signature };
      expect(await postTo(port, tlsPems.cert, { ...sent, "x-catalog-delivery": eventId }, captured.body)).toBe(204);
      // the same signed body again, under a delivery id of the replayer's choosing, and under none
      expect(await postTo(port, tlsPems.cert, { ...sent, "x-catalog-delivery": "evt_replayed0000000000" }, captured.body)).toBe(204);
      expect(await postTo(port, tlsPems.cert, sent, captured.body)).toBe(204);
      expect(events.map((e) => e.id)).toEqual([eventId]);
    } finally {
      docServer.closeAllConnections();
      await new Promise((resolve) => docServer.close(resolve));
    }
  });
});

describe("e-mail notices", () => {
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  beforeAll(async () => {
    smtp = await startSmtpSink();
  });
  afterAll(async () => {
    await smtp.close();
  });
  beforeEach(() => {
    process.env.SMTP_URL = smtp.url;
    smtp.messages.length = 0;
  });
  afterEach(() => {
    delete process.env.SMTP_URL;
  });

  it("sends a short message through SMTP whose link unsubscribes without signing in", async () => {
    const a = await keyedAccount(db, { credits: 100, email: "ops@example.test" });
    const w = await createWatch({ server_name: SERVER, email: "Ops@Example.test", label: "agents", events: ["remote_down", "remote_up"] }, a.key);
    await recordTestChanges(db, SERVER, [{ kind: "remote_down", before: { live: true }, after: { live: false } }]);
    expect(await deliver()).toMatchObject({ delivered: 1, failed: 0 });
    expect(smtp.messages).toHaveLength(1);
    const [m] = smtp.messages;
    expect(m.to).toEqual(["ops@example.test"]);
    const [d] = await deliveriesOf(w.watch.id);
    expect(d).toMatchObject({ channel: "email", status: "delivered", attempts: 1 });
    expect(mailHeader(m.raw, "Subject")).toBe(`${SERVER}: a remote endpoint stopped answering`);
    expect(mailHeader(m.raw, "X-Catalog-Delivery")).toBe(d.eventId);
    expect(mailHeader(m.raw, "X-Catalog-Watch-Id")).toBe(w.watch.id);
    expect(mailHeader(m.raw, "Message-ID")).toContain(d.eventId);
    expect(mailHeader(m.raw, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    const text = mailText(m.raw);
    expect(text).toContain('(watch "agents")');
    expect(text).toContain('"live": false');
    const link = /Stop these e-mails \(no sign-in needed\): (\S+)/.exec(text)![1];
    expect(mailHeader(m.raw, "List-Unsubscribe")).toBe(`<${link}>`);
    const u = new URL(link);
    expect(`${u.origin}${u.pathname}`).toBe("https://catalog.example.test/watch/unsubscribe");
    const [row] = await db.select().from(watches).where(eq(watches.id, w.watch.id));
    expect(u.searchParams.get("token")).toBe(row.unsubscribeToken);
    const [att] = await attemptsOf(d.id);
    expect(att.response).toMatch(/^250/);

    // opening the link only asks (no cookie, no key)
    const page = await unsubscribeGet(new Request(`http://localhost${u.pathname}${u.search}`));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<form method="post">');
    expect((await db.select().from(watches).where(eq(watches.id, w.watch.id)))[0].status).toBe("active");
    // an event queued before the click is cancelled by it
    await recordTestChanges(db, SERVER, [{ kind: "remote_up" }]);
    const done = await unsubscribePost(new Request(`http://localhost${u.pathname}${u.search}`, { method: "POST", body: "List-Unsubscribe=One-Click" }));
    expect(done.status).toBe(200);
    expect(await done.text()).toContain("Unsubscribed");
    expect((await db.select().from(watches).where(eq(watches.id, w.watch.id)))[0].status).toBe("unsubscribed");
    expect((await deliveriesOf(w.watch.id)).map((x) => x.status)).toEqual(["delivered", "cancelled"]);
    expect(await deliver()).toMatchObject({ attempts: 0 });
    expect(smtp.messages).toHaveLength(1);
    const again = await unsubscribeGet(new Request(`http://localhost${u.pathname}${u.search}`));
    expect(await again.text()).toContain("Already unsubscribed");
    const bogus = await unsubscribePost(new Request("http://localhost/watch/unsubscribe?token=nope", { method: "POST" }));
    expect(bogus.status).toBe(404);
  });

  it("mails nothing to an address that is not the account's own until it follows the link mailed to it", async () => {
    const a = await keyedAccount(db, { credits: 100, email: "owner@example.test" });
    const w = await createWatch({ server_name: SERVER, email: "Team@Example.test", label: "team", events: ["remote_down", "remote_up"] }, a.key);
    expect(w.watch).toMatchObject({ email: "team@example.test", email_confirmed: false });
    // one message: the request to confirm, naming the server and the watch, with its one link
    expect(smtp.messages).toHaveLength(1);
    const [ask] = smtp.messages;
    expect(ask.to).toEqual(["team@example.test"]);
    expect(mailHeader(ask.raw, "Subject")).toBe(`Confirm notices about ${SERVER}`);
    const text = mailText(ask.raw);
    expect(text).toContain('(watch "team")');
    const link = new URL(/confirm: (\S+)/.exec(text)![1]);
    expect(`${link.origin}${link.pathname}`).toBe("https://catalog.example.test/watch/confirm");

    // a change before the confirmation is not queued for the address
    await recordTestChanges(db, SERVER, [{ kind: "remote_down" }]);
    expect(await deliveriesOf(w.watch.id)).toEqual([]);

    // opening the link only asks (a mail scanner must not subscribe anyone); the button confirms
    const at = `http://localhost${link.pathname}${link.search}`;
    const asks = await confirmGet(new Request(at));
    expect(asks.status).toBe(200);
    expect(await asks.text()).toContain('<form method="post">');
    expect((await db.select().from(watches).where(eq(watches.id, w.watch.id)))[0].emailConfirmedAt).toBeNull();
    const done = await confirmPost(new Request(at, { method: "POST" }));
    expect(await done.text()).toContain("Confirmed");
    expect(await (await confirmGet(new Request(at))).text()).toContain("Already confirmed");
    const listed = watchListResponseSchema.parse(await (await watchGet(request("/v1/watch", { key: a.key }))).json());
    expect(listed.watches[0]).toMatchObject({ id: w.watch.id, email_confirmed: true });

    // from the next change on, the address gets its notices
    await recordTestChanges(db, SERVER, [{ kind: "remote_up" }]);
    expect(await deliver()).toMatchObject({ delivered: 1 });
    expect(smtp.messages.map((m) => mailHeader(m.raw, "Subject"))).toEqual([`Confirm notices about ${SERVER}`, `${SERVER}: a remote endpoint answers again`]);

    // an unknown link, and a link of a stopped watch, confirm nothing
    expect((await confirmPost(new Request("http://localhost/watch/confirm?token=nope", { method: "POST" }))).status).toBe(404);
    const other = await createWatch({ server_name: OTHER, email: "team@example.test" }, a.key);
    const otherLink = new URL(/confirm: (\S+)/.exec(mailText(smtp.messages.at(-1)!.raw))![1]);
    await watchDelete(request(`/v1/watch?id=${other.watch.id}`, { key: a.key, method: "DELETE" }));
    expect(await (await confirmPost(new Request(`http://localhost${otherLink.pathname}${otherLink.search}`, { method: "POST" }))).text()).toContain("Watch stopped");
    expect((await db.select().from(watches).where(eq(watches.id, other.watch.id)))[0].emailConfirmedAt).toBeNull();
  });

  it("sends the request to confirm again when the same watch is asked for again, at most 5 mails an hour to one address", async () => {
    const a = await keyedAccount(db, { credits: 100, email: "owner@example.test" });
    for (let i = 0; i < 8; i++) expect((await createWatch({ server_name: SERVER, email: "team@example.test" }, a.key)).watch.email_confirmed).toBe(false);
    expect(smtp.messages.map((m) => m.to[0])).toEqual(Array(5).fill("team@example.test"));
  });

  it("keeps a label on its own line in the mails, line breaks and direction marks shown as escapes", async () => {
    // the label is the requester's text, mailed to a stranger (the request to confirm): it must not read as ours
    const label = "x\")\r\n\r\nYour mcp-preflight account is suspended: sign in at https://evil.example/ to keep it.\u2028\u202e";
    const a = await keyedAccount(db, { credits: 100, email: "owner@example.test" });
    await createWatch({ server_name: SERVER, email: "team@example.test", label }, a.key);
    await createWatch({ server_name: OTHER, email: "owner@example.test", label }, a.key);
    await recordTestChanges(db, OTHER, [{ kind: "remote_down" }]);
    expect(await deliver()).toMatchObject({ delivered: 1 });
    expect(smtp.messages).toHaveLength(2);
    for (const m of smtp.messages) {
      const text = mailText(m.raw);
      expect(text).toContain('(watch "x\\")\\r\\n\\r\\nYour mcp-preflight account is suspended: sign in at https://evil.example/ to keep it.\\u2028\\u202e")');
      expect(text.split("\n").filter((line) => line.includes("suspended"))).toEqual([expect.stringMatching(/^(Someone|mcp-preflight observed)/)]);
    }
  });

  it("retries when the mail server is unreachable", async () => {
    process.env.SMTP_URL = "smtp://127.0.0.1:1";
    const a = await keyedAccount(db, { credits: 100, email: "ops@example.test" });
    const w = await createWatch({ server_name: SERVER, email: "ops@example.test" }, a.key);
    await recordTestChanges(db, SERVER, [{ kind: "security" }]);
    expect(await deliver()).toMatchObject({ attempts: 1, retrying: 1 });
    const [d] = await deliveriesOf(w.watch.id);
    // the kind of failure, not the operator's mail server address (the log keeps that)
    expect(d.lastError).toBe("the mail server could not be reached (ECONNREFUSED)");
    process.env.SMTP_URL = smtp.url;
    clock = new Date(clock.getTime() + 30 * S);
    expect(await deliver()).toMatchObject({ attempts: 1, delivered: 1 });
    expect(smtp.messages).toHaveLength(1);
  });
});
