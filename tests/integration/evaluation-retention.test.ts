import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import type { Db } from "@/lib/db/client";
import { evaluations } from "@/lib/db/schema";
import { preflight } from "@/lib/services/preflight";
import { getEvaluation } from "@/lib/evaluations/get-evaluation";
import { listEvaluations } from "@/lib/evaluations/list-evaluations";
import { runMaintenance } from "@/lib/services/run-maintenance";
import { startMaintenanceTimer } from "@/lib/boot/maintenance-timer";
import { chargeCaller, type Caller } from "@/lib/quota";
import { GET as maintenanceGet } from "@/app/api/cron/maintenance/route";
import { resetDb } from "../helpers/db";
import { keyedAccount, loadFixtureCatalog, request } from "../helpers/catalog-fixture";

let db: Db;
beforeEach(async () => {
  db = await resetDb();
  await loadFixtureCatalog(db);
});

const DAY = 86_400_000;

/** A keyed preflight evaluated (and paid for, which is what records it) at `at`. */
async function evaluateAt(accountId: string, at: Date) {
  const caller: Caller = { tier: "pro", accountId, keyId: null, ip: "192.0.2.1" };
  return preflight(db, { server_name: "io.github.acme/weather", policy_id: "builtin:baseline", refresh: "never" }, {
    caller,
    charge: (subject, cost, options) => chargeCaller(caller, subject, cost, { db, now: at, ...options }),
    now: () => at,
  });
}

describe("evaluation retention", () => {
  it("keeps an evaluation 90 days after completion and purges it afterwards", async () => {
    const { accountId } = await keyedAccount(db);
    const old = await evaluateAt(accountId, new Date("2026-01-01T00:00:00Z"));
    const recent = await evaluateAt(accountId, new Date());
    // completion time is when it was recorded; move the old one's clock back
    await db.update(evaluations).set({ completedAt: new Date(Date.now() - 90 * DAY - 60_000) }).where(evaluationsId(old.audit_id!));

    expect((await listEvaluations(db, accountId)).evaluations.map((e) => e.audit_id)).toEqual([recent.audit_id]);
    await expect(getEvaluation(db, accountId, old.audit_id!)).rejects.toMatchObject({ code: "not_found" });

    const atEightyNine = await runMaintenance(db, new Date(Date.now() - 2 * DAY));
    expect(atEightyNine.evaluations_purged).toBe(0);
    const now = await runMaintenance(db);
    expect(now.evaluations_purged).toBe(1);
    expect(await db.$count(evaluations)).toBe(1);
    const later = await runMaintenance(db, new Date(Date.now() + 91 * DAY));
    expect(later.evaluations_purged).toBe(1);
    expect(await db.$count(evaluations)).toBe(0);
  });

  it("is purged by the server process's own timer where no cron runs (the embedded default, a plain server)", async () => {
    const { accountId } = await keyedAccount(db);
    const old = await evaluateAt(accountId, new Date("2026-01-01T00:00:00Z"));
    await db.update(evaluations).set({ completedAt: new Date(Date.now() - 91 * DAY) }).where(evaluationsId(old.audit_id!));
    const stop = startMaintenanceTimer(db, 50);
    try {
      await expect.poll(() => db.$count(evaluations), { timeout: 5000 }).toBe(0);
    } finally {
      stop();
    }
  });

  it("runs from the cron route only with the cron secret", async () => {
    process.env.CRON_SECRET = "test-cron-secret";
    try {
      expect((await maintenanceGet(request("/api/cron/maintenance"))).status).toBe(401);
      const res = await maintenanceGet(request("/api/cron/maintenance", { headers: { authorization: "Bearer test-cron-secret" } }));
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ ok: true, evaluations_purged: 0 });
    } finally {
      delete process.env.CRON_SECRET;
    }
  });
});

describe("npm run verify", () => {
  it("exits 0 for an evaluation as the API returned it and 1 when one byte of its facts changed", async () => {
    const { accountId } = await keyedAccount(db);
    const result = await evaluateAt(accountId, new Date());
    const detail = await getEvaluation(db, accountId, result.audit_id!);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "verify-"));
    const good = path.join(dir, "good.json");
    fs.writeFileSync(good, JSON.stringify(detail));
    const tampered = path.join(dir, "tampered.json");
    fs.writeFileSync(tampered, JSON.stringify(detail).replace('"registry_status":"active"', '"registry_status":"activf"'));
    const run = (f: string) => spawnSync(process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/verify.ts", f], { encoding: "utf8" });
    const ok = run(good);
    expect(ok.stdout).toMatch(/verified/);
    expect(ok.status).toBe(0);
    const bad = run(tampered);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/mismatch: .*facts_digest/);
    expect(run(path.join(dir, "missing.json")).status).toBe(2);
    // "-" reads standard input
    const piped = spawnSync(process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/verify.ts", "-"], { encoding: "utf8", input: JSON.stringify(detail) });
    expect(piped.stdout).toMatch(/verified/);
    expect(piped.status).toBe(0);
  });
});

function evaluationsId(id: string) {
  return eq(evaluations.id, id);
}
