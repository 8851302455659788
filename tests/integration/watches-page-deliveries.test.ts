import { beforeEach, describe, expect, it, vi } from "vitest";
import * as React from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { Db } from "@/lib/db/client";
import { runDeliveries } from "@/lib/watches/run-deliveries";
import { pruneDeliveries } from "@/lib/watches/prune-deliveries";
import { resetDb } from "../helpers/db";
import { session } from "../helpers/signed-in-session";
import { keyedAccount, loadFixtureCatalog } from "../helpers/catalog-fixture";
import { insertWatch, recordTestChanges } from "../helpers/watch-fixture";

// vitest compiles the page's JSX to React.createElement (Next's build uses the automatic runtime)
(globalThis as { React?: typeof React }).React = React;

vi.mock("@/lib/auth/current-account", () => import("../helpers/signed-in-session"));

const SERVER = "io.github.acme/weather";
let db: Db;

beforeEach(async () => {
  db = await resetDb();
  await loadFixtureCatalog(db);
});

async function render(): Promise<string> {
  const { default: WatchesPage } = await import("@/app/watches/page");
  return renderToStaticMarkup(await WatchesPage({ searchParams: Promise.resolve({}) }));
}

// The empty delivery log said "no change of this server since the watch began", which the page cannot know: a
// change of a kind the watch does not ask for queues nothing, and finished deliveries are pruned after 30 days.
describe("the watches page's empty delivery log", () => {
  it("does not claim the server has not changed when its changes were of kinds the watch does not ask for", async () => {
    const a = await keyedAccount(db, { credits: 100 });
    session.accountId = a.accountId;
    await insertWatch(db, { accountId: a.accountId, serverName: SERVER, webhookUrl: "https://hooks.example.com/x", events: ["security"] });
    await recordTestChanges(db, SERVER, [{ kind: "remote_down" }]);
    const html = await render();
    expect(html).toContain('data-testid="watch-row"');
    expect(html).not.toContain("no change of this server");
    expect(html).toMatch(/No deliveries to show/);
  });

  it("does not claim nothing was ever sent once the finished deliveries were pruned", async () => {
    process.env.OUTBOUND_ALLOW_HOSTS = "";
    const a = await keyedAccount(db, { credits: 100 });
    session.accountId = a.accountId;
    // a literal private address: the attempt is refused without connecting
    await insertWatch(db, { accountId: a.accountId, serverName: SERVER, webhookUrl: "https://10.0.0.1/x" });
    await recordTestChanges(db, SERVER, [{ kind: "remote_down" }]);
    // retried for 24 h, then given up
    let clock = new Date();
    for (let i = 0; i < 20; i++) {
      await runDeliveries(db, { now: () => clock, timeoutMs: 1000 });
      clock = new Date(clock.getTime() + 6 * 3_600_000);
    }
    expect(await pruneDeliveries(db, new Date(Date.now() + 40 * 86_400_000))).toBe(1);
    const html = await render();
    expect(html).not.toContain("Nothing has been sent yet");
    expect(html).toMatch(/kept 30 days/);
    process.env.OUTBOUND_ALLOW_HOSTS = "127.0.0.1";
  });
});
