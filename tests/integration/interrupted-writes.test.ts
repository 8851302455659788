import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eq, like } from "drizzle-orm";
import { drizzleAuthAdapter } from "@/lib/auth/drizzle-adapter";
import { createApiKey } from "@/lib/accounts/create-api-key";
import { POST as preflightPost } from "@/app/v1/preflight/route";
import { GET as searchGet } from "@/app/v1/search/route";
import { revokeApiKey } from "@/lib/accounts/revoke-api-key";
import { accounts, creditCharges, creditWallets, leases, quotaCounters, remoteObservations } from "@/lib/db/schema";
import type { Db } from "@/lib/db/client";
import { resetDb, whileInsertsRefused } from "../helpers/db";
import { keyedAccount, listing, loadFixtureCatalog, request, walletRemaining } from "../helpers/catalog-fixture";
import { startMcpTestServer } from "../helpers/mcp-test-server";

// Operations made of several writes, cut off between them (the database refuses one write, as a dropped
// connection, a full disk or a killed process would leave it): what was written before the cut must not leave
// the account, the server or the caller worse off than if the operation had never started. And the same operations
// run at once (separate connections on Postgres): each stored effect matches exactly the answers given.

let db: Db;
let live: Awaited<ReturnType<typeof startMcpTestServer>>;
beforeAll(async () => {
  live = await startMcpTestServer();
});
afterAll(async () => {
  await live?.close();
});
beforeEach(async () => {
  db = await resetDb();
});

describe("an account created at sign-in whose wallet could not be written", () => {
  it("is not left without a wallet: the next sign-in creates both, and its key can pay", async () => {
    const adapter = drizzleAuthAdapter();
    const email = "half@example.test";
    await whileInsertsRefused(db, "credit_wallets", async () => {
      await expect(adapter.createUser!({ email, emailVerified: new Date() })).rejects.toThrow();
    });
    // the next sign-in asks next-auth's question first: is there an account for this address? Only when there is
    // none does it create one, so an account written without its wallet would stay walletless for good
    const found = await adapter.getUserByEmail!(email);
    const user = found ?? (await adapter.createUser!({ email, emailVerified: new Date() }));
    const [wallet] = await db.select().from(creditWallets).where(eq(creditWallets.accountId, user.id));
    expect(wallet).toMatchObject({ grantAmount: 1000, grantRemaining: 1000 });
    expect(await db.select({ id: accounts.id }).from(accounts)).toEqual([{ id: user.id }]);

    await loadFixtureCatalog(db);
    const { key } = await createApiKey(user.id, { db });
    const res = await preflightPost(request("/v1/preflight", { body: { server_name: "io.github.acme/weather" }, key }));
    expect(res.status).toBe(200);
  });
});

describe("refresh=if_stale's claim on a server", () => {
  it("cut off before its limits are counted, leaves the server neither 'in progress' nor cooling down: a retry probes at once", async () => {
    await loadFixtureCatalog(db, [listing({ name: "io.github.test/live", remotes: [{ type: "streamable-http", url: live.url }] })]);
    const a = await keyedAccount(db, { credits: 50 });
    const body = { server_name: "io.github.test/live", refresh: "if_stale" };
    // the account's daily refresh count is the last of the refresh's three writes (in progress, cooldown, count)
    await whileInsertsRefused(
      db,
      "quota_counters",
      async () => {
        const res = await preflightPost(request("/v1/preflight", { body, key: a.key }));
        expect(res.status).toBe(500);
        expect(await res.json()).toMatchObject({ ok: false, error: "internal_error" });
      },
      "new.bucket like 'refresh:%'",
    );
    expect(await db.select().from(remoteObservations)).toEqual([]);
    expect(await db.select().from(leases)).toEqual([]);
    expect(await db.$count(quotaCounters, like(quotaCounters.bucket, "refresh:%"))).toBe(0);

    const retry = await preflightPost(request("/v1/preflight", { body, key: a.key }));
    expect(retry.status).toBe(200);
    expect((await retry.json()).facts.remotes[0]).toMatchObject({ url: live.url, live: true });
    expect(await db.select().from(remoteObservations)).toHaveLength(1);
  });

  it("lets one of many accounts refreshing a server at once probe it; the rest get 409, with nothing held or counted", async () => {
    await loadFixtureCatalog(db, [listing({ name: "io.github.test/live", remotes: [{ type: "streamable-http", url: live.url }] })]);
    const callers = await Promise.all(Array.from({ length: 6 }, () => keyedAccount(db, { credits: 50 })));
    // the probe is held until every other call has its answer, so they all come while the refresh runs
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    live.state.onRequest = () => held;
    let settled = 0;
    const calls = callers.map((c) =>
      preflightPost(request("/v1/preflight", { body: { server_name: "io.github.test/live", refresh: "if_stale" }, key: c.key })).finally(() => settled++),
    );
    try {
      for (let i = 0; i < 400 && settled < callers.length - 1; i++) await new Promise((r) => setTimeout(r, 25));
    } finally {
      release();
      live.state.onRequest = undefined;
    }
    const answers = await Promise.all(calls);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    for (const r of answers.filter((x) => x.status === 409)) {
      expect(await r.json()).toEqual({ ok: false, error: "refresh_in_progress", message: expect.any(String) });
    }
    expect(await db.select().from(remoteObservations)).toHaveLength(1);
    // one refresh counted, one cooldown held (by the account that probed), no claim left in progress
    const counted = await db.select().from(quotaCounters).where(like(quotaCounters.bucket, "refresh:%"));
    expect(counted.map((c) => c.count)).toEqual([1]);
    expect((await db.select().from(leases)).map((l) => l.key)).toEqual(["refresh-cooldown:io.github.test/live"]);
  });
});

describe("a key revoked while its calls are in flight", () => {
  it("pays for exactly the calls it answered, and answers none that start after the revocation returned", async () => {
    await loadFixtureCatalog(db);
    const a = await keyedAccount(db, { credits: 100 });
    const search = (q: string) => searchGet(request(`/v1/search?q=${encodeURIComponent(q)}`, { key: a.key }));
    expect((await search("weather")).status).toBe(200); // known to this process: later calls admit in their charge
    const inFlight = Array.from({ length: 30 }, (_, i) => search(`query ${i}`));
    expect(await revokeApiKey(a.accountId, a.keyId, { db })).toBe(true);
    const after = await Promise.all(Array.from({ length: 10 }, (_, i) => search(`after ${i}`)));
    expect(after.map((r) => r.status)).toEqual(Array(10).fill(401));
    const during = await Promise.all(inFlight);
    expect(during.every((r) => r.status === 200 || r.status === 401)).toBe(true);
    // every answered call paid once, no refused one did: the wallet and the charge rows agree
    const answered = during.filter((r) => r.status === 200).length;
    expect(await db.$count(creditCharges, eq(creditCharges.accountId, a.accountId))).toBe(answered + 1);
    expect(await walletRemaining(db, a.accountId)).toBe(100 - answered - 1);
  });
});
