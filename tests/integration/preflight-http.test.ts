import { beforeEach, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { POST as preflightPost } from "@/app/v1/preflight/route";
import { GET as stampGet } from "@/app/v1/stamp/route";
import { GET as policiesGet } from "@/app/v1/policies/route";
import { GET as evaluationsGet } from "@/app/v1/evaluations/route";
import { GET as evaluationGet } from "@/app/v1/evaluations/[id]/route";
import { evaluations, leases } from "@/lib/db/schema";
import type { Db } from "@/lib/db/client";
import { preflightResultSchema, policyCatalogSchema, evaluationListSchema, evaluationDetailResponseSchema } from "@/lib/schemas/preflight";
import { verifyEvaluation } from "@/lib/engine";
import { errorBodySchema } from "@/lib/schemas/error";
import { resetDb, whileEvaluationsRefused } from "../helpers/db";
import { keyedAccount, loadFixtureCatalog, request, walletRemaining } from "../helpers/catalog-fixture";

let db: Db;
beforeEach(async () => {
  db = await resetDb();
  await loadFixtureCatalog(db);
});

const preflight = (body: unknown, opts: { key?: string; ip?: string } = {}) => preflightPost(request("/v1/preflight", { body, ...opts }));
const params = (id: string) => ({ params: Promise.resolve({ id }) });

describe("POST /v1/preflight", () => {
  it("answers an anonymous call with a contract-valid result, audit_id null and the quota headers", async () => {
    const res = await preflight({ server_name: "io.github.acme/weather" });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(preflightResultSchema.parse(body)).toBeTruthy();
    expect(body.audit_id).toBeNull();
    expect(body.policy.id).toBe("builtin:baseline");
    expect(body.decision_scope).toBe("public_evidence_policy");
    expect(res.headers.get("x-tier")).toBe("free");
    expect(Number(res.headers.get("x-ratelimit-limit"))).toBeGreaterThan(0);
    expect(res.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/);
    // no harvest yet: the repository and package evidence is unknown, so never a PASS
    expect(body.decision).not.toBe("PASS");
    expect(body.facts.repository.exists).toBeNull();
  });

  it("gives a keyed call a random audit_id, records it for the account only, and charges 5 credits once a day", async () => {
    const a = await keyedAccount(db, { credits: 100 });
    const b = await keyedAccount(db, { credits: 100 });
    const res = await preflight({ server_name: "io.github.acme/weather", policy_id: "builtin:strict" }, { key: a.key });
    expect(res.status).toBe(200);
    const body = preflightResultSchema.parse(await res.json());
    expect(body.audit_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get("x-tier")).toBe("registered");
    expect(res.headers.get("x-credits-remaining")).toBe("95");
    expect(await walletRemaining(db, a.accountId)).toBe(95);

    const again = preflightResultSchema.parse(await (await preflight({ server_name: "io.github.acme/weather", policy_id: "builtin:strict" }, { key: a.key })).json());
    expect(again.audit_id).not.toBe(body.audit_id);
    expect(await walletRemaining(db, a.accountId)).toBe(95);

    const list = evaluationListSchema.parse(await (await evaluationsGet(request("/v1/evaluations", { key: a.key }))).json());
    expect(list.count).toBe(2);
    expect(list.evaluations[0].audit_id).toBe(again.audit_id);
    const detailRes = await evaluationGet(request(`/v1/evaluations/${body.audit_id}`, { key: a.key }), params(body.audit_id!));
    expect(detailRes.status).toBe(200);
    const detail = evaluationDetailResponseSchema.parse(await detailRes.json());
    expect(detail.evaluation.facts_digest).toBe(body.facts_digest);
    expect(verifyEvaluation(detail)).toMatchObject({ ok: true, mismatches: [] });
    // the record holds the facts as the very text their digest hashes, and the reasons as they were answered
    const [stored] = await db.select().from(evaluations).where(eq(evaluations.id, body.audit_id!));
    expect(`sha256:${createHash("sha256").update(stored.facts, "utf8").digest("hex")}`).toBe(body.facts_digest);
    expect(JSON.parse(stored.reasons)).toEqual(body.reasons);

    // another account cannot read it, and sees an empty list
    const foreign = await evaluationGet(request(`/v1/evaluations/${body.audit_id}`, { key: b.key }), params(body.audit_id!));
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toMatchObject({ ok: false, error: "not_found" });
    expect((await (await evaluationsGet(request("/v1/evaluations", { key: b.key }))).json()).count).toBe(0);
  });

  it.each([
    ["an unknown field", { server_name: "io.github.acme/weather", extra: true }],
    ["an unknown policy", { server_name: "io.github.acme/weather", policy_id: "builtin:lenient" }],
    ["an unknown refresh mode", { server_name: "io.github.acme/weather", refresh: "always" }],
    ["an empty name", { server_name: "" }],
    ["a name over 300 characters", { server_name: "a/" + "b".repeat(299) }],
    ["a name of the wrong type", { server_name: 42 }],
    ["no name", { policy_id: "builtin:baseline" }],
    ["a body that is not JSON", "server_name=io.github.acme/weather"],
  ])("answers %s with 400 and spends nothing", async (_label, body) => {
    const a = await keyedAccount(db, { credits: 10 });
    const res = await preflight(body, { key: a.key });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ ok: false, error: "invalid_request", message: expect.any(String) });
    expect(await walletRemaining(db, a.accountId)).toBe(10);
  });

  it("refuses a member named twice with 400, as a query parameter given twice is: JSON.parse would keep the last silently", async () => {
    const a = await keyedAccount(db, { credits: 10 });
    // a client that writes its default policy first and the caller's after would be decided under the caller's,
    // one that writes them the other way round under the default, with nothing in the answer to tell which
    const body = '{"server_name":"io.github.acme/weather","policy_id":"builtin:strict","policy_id":"builtin:baseline"}';
    const res = await preflight(body, { key: a.key });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ ok: false, error: "invalid_request", message: "policy_id: given more than once; send it once" });
    // an earlier copy too deep for the check is refused as well, never a 500
    const deep = `{"server_name":${"[".repeat(30_000)}${"]".repeat(30_000)},"server_name":"io.github.acme/weather"}`;
    const deepRes = await preflight(deep, { key: a.key });
    expect(deepRes.status).toBe(400);
    expect(errorBodySchema.parse(await deepRes.json()).error).toBe("invalid_request");
    expect(await walletRemaining(db, a.accountId)).toBe(10);
    expect(await db.$count(evaluations)).toBe(0);
  });

  it("says a missing name is required (not a type error about undefined), in the body and the stamp's query", async () => {
    const body = await preflight({ policy_id: "builtin:baseline" });
    expect(await body.json()).toEqual({ ok: false, error: "invalid_request", message: "server_name: server_name is required" });
    const query = await stampGet(request("/v1/stamp?policy_id=builtin:strict"));
    expect(await query.json()).toEqual({ ok: false, error: "invalid_request", message: "name: name is required" });
    // a name of another type keeps zod's own message
    expect((await (await preflight({ server_name: 42 })).json()).message).toMatch(/^server_name: .*expected string/i);
  });

  it("answers 401 to an anonymous refresh=if_stale and to an invalid key", async () => {
    const anon = await preflight({ server_name: "io.github.acme/weather", refresh: "if_stale" });
    expect(anon.status).toBe(401);
    expect(await anon.json()).toMatchObject({ ok: false, error: "unauthorized" });
    const bad = await preflight({ server_name: "io.github.acme/weather" }, { key: "catk_not-a-real-key" });
    expect(bad.status).toBe(401);
    const text = await bad.text();
    expect(text).not.toContain("catk_not-a-real-key");
  });

  it("answers 404 for a name not in the catalog, matched exactly and case-sensitively, and spends nothing", async () => {
    const a = await keyedAccount(db, { credits: 10 });
    for (const name of ["io.github.acme/nope", "io.github.ACME/weather"]) {
      const res = await preflight({ server_name: name }, { key: a.key });
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ ok: false, error: "not_found" });
    }
    expect(await walletRemaining(db, a.accountId)).toBe(10);
  });

  it.each([
    ["1 character", "a"],
    ["300 characters", "a/" + "b".repeat(298)],
    ["300 characters outside the BMP", "\u{1F600}".repeat(300)],
  ])("takes a name of %s (the contract's edges) as valid input: 404, not 400", async (_label, name) => {
    const a = await keyedAccount(db, { credits: 10 });
    const res = await preflight({ server_name: name }, { key: a.key });
    expect(res.status).toBe(404);
    expect(errorBodySchema.parse(await res.json())).toMatchObject({ ok: false, error: "not_found" });
    const stamped = await stampGet(request(`/v1/stamp?name=${encodeURIComponent(name)}`, { key: a.key }));
    expect(stamped.status).toBe(404);
    expect(await walletRemaining(db, a.accountId)).toBe(10);
  });

  it("answers 402 when the wallet cannot pay, and leaves no evaluation behind", async () => {
    const a = await keyedAccount(db, { credits: 4 });
    const res = await preflight({ server_name: "io.github.acme/weather" }, { key: a.key });
    expect(res.status).toBe(402);
    expect(await res.json()).toMatchObject({ ok: false, error: "payment_required" });
    expect(await db.$count(evaluations)).toBe(0);
    expect(await walletRemaining(db, a.accountId)).toBe(4);
  });

  it("answers 409 while a liveness refresh of the server is in progress", async () => {
    const a = await keyedAccount(db, { credits: 50 });
    const now = new Date();
    await db.insert(leases).values({ key: "refresh:io.github.acme/weather", holder: "other", acquiredAt: now, expiresAt: new Date(now.getTime() + 60_000) });
    const res = await preflight({ server_name: "io.github.acme/weather", refresh: "if_stale" }, { key: a.key });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ ok: false, error: "refresh_in_progress" });
    expect(await walletRemaining(db, a.accountId)).toBe(50);
  });

  it("answers 429 with retry_after and reset_at inside the per-server refresh cooldown", async () => {
    const a = await keyedAccount(db, { credits: 50 });
    const now = new Date();
    await db.insert(leases).values({ key: "refresh-cooldown:io.github.acme/weather", holder: "someone", acquiredAt: now, expiresAt: new Date(now.getTime() + 300_000) });
    const res = await preflight({ server_name: "io.github.acme/weather", refresh: "if_stale" }, { key: a.key });
    expect(res.status).toBe(429);
    const body = await res.json();
    expect(body).toMatchObject({ ok: false, error: "rate_limited", retry_after: expect.any(Number), reset_at: expect.any(String) });
    expect(body.retry_after).toBeGreaterThan(200);
    expect(body.retry_after).toBeLessThanOrEqual(300);
    expect(res.headers.get("retry-after")).toBe(String(body.retry_after));
    expect(await walletRemaining(db, a.accountId)).toBe(50);
  });

  it("answers 503 audit_unavailable without a result when a keyed evaluation cannot be recorded", async () => {
    const a = await keyedAccount(db, { credits: 50 });
    await whileEvaluationsRefused(db, async () => {
      const res = await preflight({ server_name: "io.github.acme/weather" }, { key: a.key });
      expect(res.status).toBe(503);
      const body = await res.json();
      expect(body).toMatchObject({ ok: false, error: "audit_unavailable" });
      expect(body.message).toMatch(/so no result is returned and no credits were spent; retry shortly$/);
      expect(body.decision).toBeUndefined();
      expect(await walletRemaining(db, a.accountId)).toBe(50);
      // as every metered answer, it carries the quota headers, and the request counted in its burst window
      expect(res.headers.get("x-credits-remaining")).toBe("50");
      const left = Number(res.headers.get("x-ratelimit-remaining"));
      expect(left).toBeGreaterThan(0);
      // again, now that the key is known (the one-statement path): the same answer, one request more counted
      const again = await preflight({ server_name: "io.github.acme/weather" }, { key: a.key });
      expect(again.status).toBe(503);
      expect(again.headers.get("x-credits-remaining")).toBe("50");
      expect(Number(again.headers.get("x-ratelimit-remaining"))).toBe(left - 1);
      // anonymous calls record nothing, so they still answer
      expect((await preflight({ server_name: "io.github.acme/weather" })).status).toBe(200);
    });
  });
});

describe("GET /v1/stamp", () => {
  it("prints one CATALOG-STAMP/1 line with the same digests as preflight", async () => {
    const a = await keyedAccount(db, { credits: 50 });
    const res = await stampGet(request("/v1/stamp?name=io.github.acme/weather&policy_id=builtin:first-party", { key: a.key }));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    const line = (await res.text()).trimEnd();
    expect(line).toMatch(
      /^CATALOG-STAMP\/1 (PASS|REVIEW|BLOCK) io\.github\.acme\/weather builtin:first-party@1 facts=sha256:[0-9a-f]{64} input=sha256:[0-9a-f]{64} at=\S+Z until=\S+Z audit=[0-9a-f-]{36}$/,
    );
    expect(await walletRemaining(db, a.accountId)).toBe(45);
    const anon = (await (await stampGet(request("/v1/stamp?name=io.github.acme/weather"))).text()).trimEnd();
    expect(anon).toMatch(/ builtin:baseline@1 .* audit=-$/);
  });

  it("takes the same input rules and errors as preflight", async () => {
    expect((await stampGet(request("/v1/stamp?name=io.github.acme/nope"))).status).toBe(404);
    expect((await stampGet(request("/v1/stamp?name=io.github.acme/weather&policy_id=x"))).status).toBe(400);
    expect((await stampGet(request("/v1/stamp?name=io.github.acme/weather&bogus=1"))).status).toBe(400);
    expect((await stampGet(request("/v1/stamp"))).status).toBe(400);
    expect((await stampGet(request("/v1/stamp?name=io.github.acme/weather&refresh=if_stale"))).status).toBe(401);
  });
});

describe("GET /v1/policies", () => {
  it("returns the three policies, the ruleset and their digests", async () => {
    const res = await policiesGet(request("/v1/policies"));
    expect(res.status).toBe(200);
    const body = policyCatalogSchema.parse(await res.json());
    expect(body.policies.map((p) => p.name)).toEqual(["baseline@1", "first-party@1", "strict@1"]);
    for (const p of body.policies) expect(body.policy_digests[p.id]).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});

describe("GET /v1/evaluations", () => {
  it("lists at most 50, newest first", async () => {
    const a = await keyedAccount(db, { credits: 5 });
    const ids: string[] = [];
    for (let i = 0; i < 51; i++) {
      const body = preflightResultSchema.parse(await (await preflight({ server_name: "io.github.acme/weather" }, { key: a.key })).json());
      ids.push(body.audit_id!);
    }
    const list = evaluationListSchema.parse(await (await evaluationsGet(request("/v1/evaluations", { key: a.key }))).json());
    expect(list.count).toBe(50);
    expect(list.evaluations.map((e) => e.audit_id)).toEqual(ids.slice(1).reverse());
  });

  it("answers 401 without a key and 404 for a malformed id", async () => {
    expect((await evaluationsGet(request("/v1/evaluations"))).status).toBe(401);
    const a = await keyedAccount(db);
    const res = await evaluationGet(request("/v1/evaluations/not-a-uuid", { key: a.key }), params("not-a-uuid"));
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ ok: false, error: "not_found" });
    // an id holding a NUL is as malformed, and the message quotes it escaped, never the raw control character
    const nul = await evaluationGet(request("/v1/evaluations/a%00", { key: a.key }), params("a\u0000"));
    expect(nul.status).toBe(404);
    const body = errorBodySchema.parse(await nul.json());
    expect(body.error).toBe("not_found");
    expect(body.message).not.toContain("\u0000");
    expect(body.message).toContain('"a\\u0000"');
  });
});
