import { beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { POLICY_IDS } from "@/lib/engine";
import { getServerPage } from "@/lib/services/get-server-page";
import { getServerCard } from "@/lib/services/get-server-card";
import { preflight } from "@/lib/services/preflight";
import { listChanges } from "@/lib/services/list-changes";
import { healthCardSchema } from "@/lib/schemas/health-card";
import { preflightResultSchema } from "@/lib/schemas/preflight";
import { resetDb } from "../helpers/db";
import { PAGE_SERVERS, seedPageFixture } from "../helpers/page-fixture";

// vitest sets BASE_URL=/ (Vite's base path), which siteUrl() would otherwise read
process.env.SITE_URL = "http://localhost:3000";

let db: Db;
const NOW = new Date();
beforeEach(async () => {
  db = await resetDb();
  await seedPageFixture(db, NOW);
});

const free = { caller: { accountId: null, keyId: null }, charge: async () => undefined };

describe("the server page's view", () => {
  it.each(Object.entries(PAGE_SERVERS))("shows for the %s server exactly what GET /v1/server and POST /v1/preflight answer at the same instant", async (_k, name) => {
    const at = new Date(NOW.getTime() + 5_000);
    const view = await getServerPage(db, name, { now: at });
    expect(view).not.toBeNull();
    const { ok: _ok, ...card } = await getServerCard(db, name, { charge: free.charge, now: at });
    expect(view!.card).toEqual(card);
    healthCardSchema.parse(view!.card);
    expect(view!.decisions.map((d) => d.policy.id)).toEqual([...POLICY_IDS]);
    for (const d of view!.decisions) {
      const api = await preflight(db, { server_name: name, policy_id: d.policy.id, refresh: "never" }, { ...free, now: () => at });
      expect(d).toEqual(api);
      preflightResultSchema.parse(d);
    }
    expect(view!.changes).toEqual(await listChanges(db, { server_name: name, limit: 10 }));
  });

  it("covers every decision and health the pages need to show", async () => {
    const decision = async (name: string) => (await getServerPage(db, name))!.decisions[0].decision;
    expect(await decision(PAGE_SERVERS.pass)).toBe("PASS");
    expect(await decision(PAGE_SERVERS.review)).toBe("REVIEW");
    expect(await decision(PAGE_SERVERS.block)).toBe("BLOCK");
    const pass = (await getServerPage(db, PAGE_SERVERS.pass))!;
    expect(pass.card.health).toBe("healthy");
    expect(pass.card.lookalike_names).toEqual([PAGE_SERVERS.review]);
    expect(pass.decisions.map((d) => d.decision)).toEqual(["PASS", "PASS", "PASS"]);
    expect(pass.changes.changes.map((c) => c.kind)).toEqual(["server_new", "health_change"]);
    expect((await getServerPage(db, PAGE_SERVERS.block))!.card.health_problems).toEqual(["repo_gone"]);
    expect((await getServerPage(db, PAGE_SERVERS.remote))!.card.health_problems).toEqual(["remote_down"]);
  });

  it("is null for a name not in the catalog (names are exact and case-sensitive)", async () => {
    expect(await getServerPage(db, "io.github.acme/Weather")).toBeNull();
    expect(await getServerPage(db, "io.github.nobody/nothing")).toBeNull();
  });
});
