import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eq, like } from "drizzle-orm";
import { POST as preflightPost } from "@/app/v1/preflight/route";
import { GET as stampGet } from "@/app/v1/stamp/route";
import { changes, leases, quotaCounters, remoteObservations } from "@/lib/db/schema";
import type { Db } from "@/lib/db/client";
import { preflightResultSchema } from "@/lib/schemas/preflight";
import { resetDb, whileEvaluationsRefused } from "../helpers/db";
import { revokeApiKey } from "@/lib/accounts/revoke-api-key";
import { keyedAccount, listing, loadFixtureCatalog, request, walletRemaining } from "../helpers/catalog-fixture";
import { startMcpTestServer } from "../helpers/mcp-test-server";
import { startHttpServer } from "../helpers/http-server";
import { claimItems, leaseKey, releaseItems } from "@/lib/harvest/leases";

let db: Db;
let live: Awaited<ReturnType<typeof startMcpTestServer>>;
// an endpoint that answers every request with 404: down, as a listed remote that is gone
let down: Awaited<ReturnType<typeof startHttpServer>>;
let DOWN_URL: string;

beforeAll(async () => {
  live = await startMcpTestServer();
  down = await startHttpServer((_req, res) => res.writeHead(404).end());
  DOWN_URL = `${down.url}/mcp`;
  process.env.OUTBOUND_ALLOW_HOSTS = "127.0.0.1";
});
afterAll(async () => {
  delete process.env.OUTBOUND_ALLOW_HOSTS;
  await live?.close();
  await down?.close();
});
beforeEach(async () => {
  db = await resetDb();
  await loadFixtureCatalog(db, [
    listing({ name: "io.github.test/live", remotes: [{ type: "streamable-http", url: live.url }] }),
    listing({ name: "io.github.test/down", remotes: [{ type: "streamable-http", url: DOWN_URL }] }),
    listing({ name: "io.github.test/templated", remotes: [{ type: "streamable-http", url: `${live.url}/{tenant}` }] }),
  ]);
});

const preflight = (body: unknown, key?: string) => preflightPost(request("/v1/preflight", { body, key }));

describe("refresh=if_stale", () => {
  it("probes the stored remote URL with MCP initialize + tools/list and decides on the fresh observation", async () => {
    const a = await keyedAccount(db, { credits: 50 });
    const before = Date.now();
    const res = await preflight({ server_name: "io.github.test/live", policy_id: "builtin:strict", refresh: "if_stale" }, a.key);
    expect(res.status).toBe(200);
    const body = preflightResultSchema.parse(await res.json());
    const remote = body.facts.remotes[0];
    expect(remote).toMatchObject({ url: live.url, live: true });
    expect(Date.parse(remote.observed_at!)).toBeGreaterThanOrEqual(before - 1000);
    const reason = body.reasons.find((r) => r.code === "remote_liveness")!;
    expect(reason.result).toBe("pass");
    const [obs] = await db.select().from(remoteObservations);
    expect(obs.toolsCount).toBe(1);
    expect(obs.toolsHash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(await walletRemaining(db, a.accountId)).toBe(45);

    // fresh now: a second call probes nothing and is not held by the cooldown
    const again = await preflight({ server_name: "io.github.test/live", policy_id: "builtin:strict", refresh: "if_stale" }, a.key);
    expect(again.status).toBe(200);
    const [obs2] = await db.select().from(remoteObservations);
    expect(obs2.attemptedAt!.getTime()).toBe(obs.attemptedAt!.getTime());
  });

  it("answers 503 when the evaluation cannot be recorded after a probe, saying the probe ran and is kept, and charges no credits", async () => {
    const a = await keyedAccount(db, { credits: 50 });
    await whileEvaluationsRefused(db, async () => {
      const res = await preflight({ server_name: "io.github.test/live", policy_id: "builtin:strict", refresh: "if_stale" }, a.key);
      expect(res.status).toBe(503);
      const body = await res.json();
      expect(body).toEqual({ ok: false, error: "audit_unavailable", message: expect.stringContaining("the liveness probe did run") });
      expect(body.message).toMatch(/no credits were spent/);
      expect(await walletRemaining(db, a.accountId)).toBe(50);
      // what the message says is kept: the observation, which a retry with refresh=never is evaluated on
      expect(await db.select().from(remoteObservations)).toHaveLength(1);
    });
    const retry = preflightResultSchema.parse(await (await preflight({ server_name: "io.github.test/live", policy_id: "builtin:strict" }, a.key)).json());
    expect(retry.facts.remotes[0]).toMatchObject({ live: true });
  });

  it("does not probe for a key revoked after this process came to know it: 401 first", async () => {
    const a = await keyedAccount(db, { credits: 50 });
    expect((await preflight({ server_name: "io.github.test/down" }, a.key)).status).toBe(200); // the key is known now
    await revokeApiKey(a.accountId, a.keyId, { db });
    const res = await preflight({ server_name: "io.github.test/live", refresh: "if_stale" }, a.key);
    expect(res.status).toBe(401);
    expect(await db.select().from(remoteObservations)).toEqual([]);
    expect(await walletRemaining(db, a.accountId)).toBe(45);
  });

  it("the stamp does not probe for a revoked known key either: 401, no observation, no cooldown lease", async () => {
    const a = await keyedAccount(db, { credits: 50 });
    expect((await stampGet(request("/v1/stamp?name=io.github.test/down", { key: a.key }))).status).toBe(200); // the key is known now
    await revokeApiKey(a.accountId, a.keyId, { db });
    const res = await stampGet(request(`/v1/stamp?name=io.github.test/live&refresh=if_stale`, { key: a.key }));
    expect(res.status).toBe(401);
    expect(await db.select().from(remoteObservations)).toEqual([]);
    expect(await db.select().from(leases)).toEqual([]);
    // another account can refresh the server at once: nobody holds its cooldown
    const b = await keyedAccount(db, { credits: 50 });
    expect((await stampGet(request(`/v1/stamp?name=io.github.test/live&refresh=if_stale`, { key: b.key }))).status).toBe(200);
  });

  it("a wallet that cannot pay is a 402 before anything is probed: no observation, no lease, no refresh counted", async () => {
    const a = await keyedAccount(db, { credits: 4 });
    const changesBefore = await db.$count(changes);
    const res = await preflight({ server_name: "io.github.test/live", refresh: "if_stale" }, a.key);
    expect(res.status).toBe(402);
    expect(await res.json()).toMatchObject({ ok: false, error: "payment_required" });
    expect(await db.select().from(remoteObservations)).toEqual([]);
    expect(await db.select().from(leases)).toEqual([]);
    expect(await db.$count(changes)).toBe(changesBefore);
    expect(await db.$count(quotaCounters, like(quotaCounters.bucket, "refresh:%"))).toBe(0);
    expect(await walletRemaining(db, a.accountId)).toBe(4);
    // the stamp, same rules
    const stamp = await stampGet(request("/v1/stamp?name=io.github.test/live&refresh=if_stale", { key: a.key }));
    expect(stamp.status).toBe(402);
    expect(await db.select().from(remoteObservations)).toEqual([]);
    // a repeat of a call paid today is free, so it may refresh with an empty wallet
    const b = await keyedAccount(db, { credits: 5 });
    expect((await preflight({ server_name: "io.github.test/live" }, b.key)).status).toBe(200);
    expect(await walletRemaining(db, b.accountId)).toBe(0);
    const again = await preflight({ server_name: "io.github.test/live", refresh: "if_stale" }, b.key);
    expect(again.status).toBe(200);
    expect(await db.select().from(remoteObservations)).toHaveLength(1);
  });

  it("leaves a URL a harvest run is probing to that run, and holds it from the harvest while probing", async () => {
    const a = await keyedAccount(db, { credits: 50 });
    const key = leaseKey("liveness", live.url);
    expect(await claimItems(db, [key], "harvest-run-1", 60_000, new Date())).toEqual(new Set([key]));
    const res = await preflight({ server_name: "io.github.test/live", refresh: "if_stale" }, a.key);
    expect(res.status).toBe(200);
    expect(await db.select().from(remoteObservations)).toEqual([]); // the run's answer will be written, not ours
    await releaseItems(db, [key], "harvest-run-1");
    await db.delete(leases).where(like(leases.key, "refresh-cooldown:%")); // the server's cooldown is not what this is about

    const b = await keyedAccount(db, { credits: 50 });
    let heldDuringProbe = false;
    live.state.onRequest = async () => {
      heldDuringProbe ||= (await claimItems(db, [key], "harvest-run-2", 60_000, new Date())).size === 0;
    };
    try {
      expect((await preflight({ server_name: "io.github.test/live", refresh: "if_stale" }, b.key)).status).toBe(200);
    } finally {
      live.state.onRequest = undefined;
    }
    expect(heldDuringProbe).toBe(true);
    expect(await db.select().from(remoteObservations)).toHaveLength(1);
    expect(await db.select().from(leases).where(eq(leases.key, key))).toEqual([]); // given back
  });

  it("never probes a remote URL with {templates}, as the harvester does not: nothing to refresh, no lease", async () => {
    const a = await keyedAccount(db, { credits: 50 });
    const res = await preflight({ server_name: "io.github.test/templated", policy_id: "builtin:strict", refresh: "if_stale" }, a.key);
    expect(res.status).toBe(200);
    expect(await db.select().from(remoteObservations)).toEqual([]);
    expect(await db.select().from(leases)).toEqual([]);
    expect(await db.select().from(changes).where(eq(changes.kind, "remote_down"))).toEqual([]);
  });

  it("records a remote that does not answer as down, and strict blocks on it", async () => {
    const a = await keyedAccount(db, { credits: 50 });
    const res = await preflight({ server_name: "io.github.test/down", policy_id: "builtin:strict", refresh: "if_stale" }, a.key);
    expect(res.status).toBe(200);
    const body = preflightResultSchema.parse(await res.json());
    expect(body.facts.remotes[0]).toMatchObject({ live: false });
    expect(body.decision).toBe("BLOCK");
    // the observation feeds the change feed (and watches) like a harvest run's
    const feed = await db.select().from(changes);
    expect(feed.filter((c) => c.kind === "remote_down").map((c) => c.serverName)).toEqual(["io.github.test/down"]);
  });

  it("never reaches a private address unless the test allow-list says so: no verdict, only an attempt", async () => {
    delete process.env.OUTBOUND_ALLOW_HOSTS;
    try {
      const a = await keyedAccount(db, { credits: 50 });
      const res = await preflight({ server_name: "io.github.test/live", policy_id: "builtin:strict", refresh: "if_stale" }, a.key);
      const body = preflightResultSchema.parse(await res.json());
      expect(body.facts.remotes[0]).toMatchObject({ live: null, observed_at: null });
      expect(body.facts.remotes[0].attempted_at).not.toBeNull();
      expect(body.decision).toBe("BLOCK"); // strict fails closed on unknown liveness
    } finally {
      process.env.OUTBOUND_ALLOW_HOSTS = "127.0.0.1";
    }
  });

  it("decides what is stale on the observations stored now, not on this process's kept copy of the facts", async () => {
    const a = await keyedAccount(db, { credits: 50 });
    // this process keeps the facts as they were: the remote never observed
    expect((await preflight({ server_name: "io.github.test/live", policy_id: "builtin:strict" }, a.key)).status).toBe(200);
    // another process (a harvest, or a refresh served by another instance) observed it live a minute ago and holds
    // the server's refresh cooldown; nothing told this process
    const at = new Date(Date.now() - 60_000);
    await db.insert(remoteObservations).values({ url: live.url, type: "streamable-http", live: true, observedAt: at, attemptedAt: at });
    await db.insert(leases).values({ key: "refresh-cooldown:io.github.test/live", holder: "other", acquiredAt: at, expiresAt: new Date(at.getTime() + 600_000) });
    const res = await preflight({ server_name: "io.github.test/live", policy_id: "builtin:strict", refresh: "if_stale" }, a.key);
    // nothing is stale: no probe, no limit applies, and the decision rests on the stored observation
    expect(res.status).toBe(200);
    const body = preflightResultSchema.parse(await res.json());
    expect(body.facts.remotes[0]).toMatchObject({ live: true, observed_at: at.toISOString() });
    expect(body.reasons.find((r) => r.code === "remote_liveness")!.result).toBe("pass");
    const [obs] = await db.select().from(remoteObservations);
    expect(obs.attemptedAt!.getTime()).toBe(at.getTime());
    expect(await db.select().from(quotaCounters).where(eq(quotaCounters.bucket, `refresh:${a.accountId}`))).toEqual([]);
  });

  it("counts refreshes against the account's daily quota (20) and answers 429 past it", async () => {
    const a = await keyedAccount(db, { credits: 500 });
    const { quotaCounters } = await import("@/lib/db/schema");
    const { startOfUtcDay } = await import("@/lib/quota/utc");
    await db.insert(quotaCounters).values({ bucket: `refresh:${a.accountId}`, windowStart: startOfUtcDay(new Date()), count: 20 });
    const res = await preflight({ server_name: "io.github.test/live", refresh: "if_stale" }, a.key);
    expect(res.status).toBe(429);
    const body = await res.json();
    expect(body).toMatchObject({ ok: false, error: "rate_limited", retry_after: expect.any(Number), reset_at: expect.any(String) });
    expect(await walletRemaining(db, a.accountId)).toBe(500);
  });
});
