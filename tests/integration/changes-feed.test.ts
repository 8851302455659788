import { beforeEach, describe, expect, it } from "vitest";
import { GET as changesGet } from "@/app/v1/changes/route";
import { changes } from "@/lib/db/schema";
import type { Db } from "@/lib/db/client";
import { changeFeedResponseSchema } from "@/lib/schemas/changes";
import { encodeChangeCursor } from "@/lib/services/list-changes";
import { resetDb } from "../helpers/db";
import { keyedAccount, loadFixtureCatalog, request } from "../helpers/catalog-fixture";
import { recordTestChanges } from "../helpers/watch-fixture";

let db: Db;
beforeEach(async () => {
  db = await resetDb();
  await loadFixtureCatalog(db);
});

async function feed(query = "", opts: { key?: string; ip?: string } = {}) {
  const res = await changesGet(request(`/v1/changes${query}`, opts));
  return { res, body: await res.json() };
}

describe("GET /v1/changes", () => {
  it("starts from the newest page without a cursor, then pages forward through later changes", async () => {
    const initial = await db.select().from(changes);
    expect(initial.map((c) => c.kind)).toEqual(["server_new", "server_new", "server_new", "server_new"]);

    const first = await feed("?limit=2");
    expect(first.res.status).toBe(200);
    const page = changeFeedResponseSchema.parse(first.body);
    // the newest two, oldest first
    expect(page.changes.map((c) => c.id)).toEqual([initial[2].id, initial[3].id]);
    expect(page.has_more).toBe(false);
    expect(page.changes[0]).toEqual({
      id: initial[2].id,
      kind: "server_new",
      server_name: initial[2].serverName,
      observed_at: initial[2].observedAt.toISOString(),
      before: initial[2].before ?? null,
      after: initial[2].after ?? null,
    });

    // nothing new yet: an empty page that keeps the cursor
    const idle = changeFeedResponseSchema.parse((await feed(`?since=${page.next_cursor}`)).body);
    expect(idle).toEqual({ ok: true, changes: [], next_cursor: page.next_cursor, has_more: false });

    const recorded = await recordTestChanges(db, "io.github.acme/weather", [
      { kind: "remote_down", before: { live: true }, after: { live: false } },
      { kind: "remote_up", before: { live: false }, after: { live: true } },
      { kind: "health_change" },
    ]);
    const more = await recordTestChanges(db, "com.example/remote-only", [{ kind: "endpoint_moved" }, { kind: "tools_changed" }, { kind: "security" }, { kind: "verified_change" }]);
    const all = [...recorded, ...more].map((c) => c.id);

    const seen: number[] = [];
    let cursor = page.next_cursor;
    const hasMore: boolean[] = [];
    for (let i = 0; i < 5; i++) {
      const p = changeFeedResponseSchema.parse((await feed(`?since=${encodeURIComponent(cursor)}&limit=3`)).body);
      seen.push(...p.changes.map((c) => c.id));
      hasMore.push(p.has_more);
      cursor = p.next_cursor;
      if (!p.has_more) break;
    }
    expect(seen).toEqual(all);
    expect(hasMore).toEqual([true, true, false]);
    const remoteDown = changeFeedResponseSchema.parse((await feed(`?since=${page.next_cursor}&limit=1`)).body).changes[0];
    expect(remoteDown).toMatchObject({ kind: "remote_down", server_name: "io.github.acme/weather", before: { live: true }, after: { live: false } });

    // a cursor from the very start reads the whole history
    const whole = changeFeedResponseSchema.parse((await feed(`?since=${encodeChangeCursor(0)}&limit=500`)).body);
    expect(whole.changes.map((c) => c.id)).toEqual([...initial.map((c) => c.id), ...all]);
    expect(whole.has_more).toBe(false);
  });

  it("is unmetered: anonymous callers poll as often as they like, with no quota headers", async () => {
    for (let i = 0; i < 15; i++) {
      const { res } = await feed(`?limit=${i + 1}`, { ip: "198.51.100.77" });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-ratelimit-remaining")).toBeNull();
    }
    const a = await keyedAccount(db, { credits: 3 });
    const { res } = await feed("", { key: a.key });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-credits-remaining")).toBeNull();
  });

  it.each([
    ["a malformed cursor", "?since=not-a-cursor"],
    ["a cursor of another shape", `?since=${Buffer.from("c2.1").toString("base64url")}`],
    ["an empty cursor", "?since="],
    ["limit 0", "?limit=0"],
    ["limit 501", "?limit=501"],
    ["a non-numeric limit", "?limit=ten"],
    ["an unknown parameter", "?cursor=abc"],
  ])("answers 400 invalid_request for %s", async (_what, query) => {
    const { res, body } = await feed(query);
    expect(res.status).toBe(400);
    expect(body).toMatchObject({ ok: false, error: "invalid_request" });
  });
});

describe("GET /v1/changes cursors past the newest change", () => {
  it("refuses a since or before cursor it cannot have issued (past the newest change) and keeps the newest one", async () => {
    const newest = Math.max(...(await db.select().from(changes)).map((c) => c.id));
    for (const query of [`?since=${encodeChangeCursor(newest + 1)}`, `?since=${encodeChangeCursor(99_999)}`, `?before=${encodeChangeCursor(newest + 2)}`]) {
      const { res, body } = await feed(query);
      expect(res.status, query).toBe(400);
      expect(body).toMatchObject({ ok: false, error: "invalid_request", message: expect.stringMatching(/past the newest change/) });
    }
    // the newest change's own cursor is what an idle poller holds: an empty page, the same cursor
    const idle = changeFeedResponseSchema.parse((await feed(`?since=${encodeChangeCursor(newest)}&kind=security`)).body);
    expect(idle).toEqual({ ok: true, changes: [], next_cursor: encodeChangeCursor(newest), has_more: false });
    // …and it stays valid once later changes arrive
    const [later] = await recordTestChanges(db, "io.github.acme/weather", [{ kind: "remote_down" }]);
    expect(changeFeedResponseSchema.parse((await feed(`?since=${encodeChangeCursor(newest)}`)).body).changes.map((c) => c.id)).toEqual([later.id]);
  });
});

describe("GET /v1/changes filters and browsing back", () => {
  it("filters by kind (one or a comma-separated list) and by one exact server", async () => {
    const weather = await recordTestChanges(db, "io.github.acme/weather", [{ kind: "remote_down" }, { kind: "health_change" }, { kind: "remote_up" }]);
    const other = await recordTestChanges(db, "com.example/remote-only", [{ kind: "remote_down" }, { kind: "security" }]);

    const down = changeFeedResponseSchema.parse((await feed("?kind=remote_down")).body);
    expect(down.changes.map((c) => c.id)).toEqual([weather[0].id, other[0].id]);

    const two = changeFeedResponseSchema.parse((await feed("?kind=remote_down,remote_up&limit=500")).body);
    expect(two.changes.map((c) => c.id)).toEqual([weather[0].id, weather[2].id, other[0].id]);

    const mine = changeFeedResponseSchema.parse((await feed(`?server_name=${encodeURIComponent("io.github.acme/weather")}`)).body);
    expect(mine.changes.map((c) => c.kind)).toEqual(["server_new", "remote_down", "health_change", "remote_up"]);
    expect(new Set(mine.changes.map((c) => c.server_name))).toEqual(new Set(["io.github.acme/weather"]));

    const both = changeFeedResponseSchema.parse((await feed(`?server_name=com.example/remote-only&kind=security`)).body);
    expect(both.changes.map((c) => c.id)).toEqual([other[1].id]);

    // names are exact: another case is another (absent) server
    const none = changeFeedResponseSchema.parse((await feed("?server_name=io.github.acme/Weather")).body);
    expect(none.changes).toEqual([]);

    // filters hold while polling forward too
    const since = changeFeedResponseSchema.parse((await feed(`?since=${encodeChangeCursor(weather[0].id)}&kind=remote_down`)).body);
    expect(since.changes.map((c) => c.id)).toEqual([other[0].id]);
  });

  it("browses back from the newest page with before=older_cursor, without gaps or repeats", async () => {
    await recordTestChanges(db, "io.github.acme/weather", Array.from({ length: 7 }, () => ({ kind: "health_change" as const })));
    const everything = (await db.select().from(changes)).map((c) => c.id).sort((a, b) => a - b);
    expect(everything).toHaveLength(11);

    const seen: number[][] = [];
    let page = changeFeedResponseSchema.parse((await feed("?limit=4")).body);
    seen.unshift(page.changes.map((c) => c.id));
    while (page.older_cursor) {
      page = changeFeedResponseSchema.parse((await feed(`?limit=4&before=${page.older_cursor}`)).body);
      seen.unshift(page.changes.map((c) => c.id));
      expect(page.has_more).toBe(true);
    }
    expect(seen.map((p) => p.length)).toEqual([3, 4, 4]);
    expect(seen.flat()).toEqual(everything);
    expect(page.older_cursor).toBeNull();
  });

  it.each([
    ["an unknown kind", "?kind=remote_gone"],
    ["an empty kind in a list", "?kind=remote_down,"],
    ["since and before together", `?since=${encodeChangeCursor(1)}&before=${encodeChangeCursor(2)}`],
    ["a malformed before cursor", "?before=nope!"],
  ])("answers 400 invalid_request for %s", async (_what, query) => {
    const { res, body } = await feed(query);
    expect(res.status).toBe(400);
    expect(body).toMatchObject({ ok: false, error: "invalid_request" });
  });
});
