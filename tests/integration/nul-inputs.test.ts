import { beforeEach, describe, expect, it } from "vitest";
import { GET as serverGet } from "@/app/v1/server/route";
import { GET as searchGet } from "@/app/v1/search/route";
import { GET as lookalikesGet } from "@/app/v1/lookalikes/route";
import { GET as stampGet } from "@/app/v1/stamp/route";
import { GET as changesGet } from "@/app/v1/changes/route";
import { POST as preflightPost } from "@/app/v1/preflight/route";
import { POST as watchPost } from "@/app/v1/watch/route";
import { GET as badgeGet } from "@/app/badge/[...name]/route";
import type { Db } from "@/lib/db/client";
import { getServerPage, serverExists } from "@/lib/services/get-server-page";
import { resetDb } from "../helpers/db";
import { keyedAccount, loadFixtureCatalog, request, walletRemaining } from "../helpers/catalog-fixture";
import { mcpClients } from "../helpers/mcp-client";
import { watches } from "@/lib/db/schema";

// Postgres text cannot hold U+0000: every input carrying one is refused as a 400 before any query (it used
// to reach the database and come back as a 500), and a name carrying one is simply not in the catalog.
let db: Db;
beforeEach(async () => {
  db = await resetDb();
  await loadFixtureCatalog(db);
});
const mcp = mcpClients();

const NAME = "io.github.acme/weather";

describe("inputs holding a NUL character", () => {
  it("are a 400 invalid_request naming the field on every REST input, and spend nothing", async () => {
    const a = await keyedAccount(db, { credits: 100 });
    const cases: [string, Promise<Response>][] = [
      ["server", serverGet(request(`/v1/server?name=${encodeURIComponent(NAME + "\0")}`, { key: a.key }))],
      ["search", searchGet(request("/v1/search?q=wea%00ther", { key: a.key }))],
      ["lookalikes", lookalikesGet(request("/v1/lookalikes?name=%00", { key: a.key }))],
      ["stamp", stampGet(request(`/v1/stamp?name=${encodeURIComponent(NAME)}%00`, { key: a.key }))],
      ["changes", changesGet(request("/v1/changes?server_name=a%00b"))],
      ["preflight", preflightPost(request("/v1/preflight", { body: { server_name: `${NAME}\u0000` }, key: a.key }))],
      ["preflight (anonymous)", preflightPost(request("/v1/preflight", { body: { server_name: "\u0000" } }))],
      ["watch label", watchPost(request("/v1/watch", { body: { server_name: NAME, webhook_url: "https://hooks.example.com/x", label: "a\u0000b" }, key: a.key }))],
    ];
    for (const [what, pending] of cases) {
      const res = await pending;
      const body = await res.json();
      expect(res.status, what).toBe(400);
      expect(body, what).toMatchObject({ ok: false, error: "invalid_request", message: expect.stringMatching(/must not contain NUL/) });
    }
    expect(await walletRemaining(db, a.accountId)).toBe(100);
  });

  it("a name with a NUL is not in the catalog: the page has nothing and the badge says 404", async () => {
    expect(await serverExists(db, `${NAME}\u0000`)).toBe(false);
    expect(await getServerPage(db, `${NAME}\u0000`)).toBeNull();
    const res = await badgeGet(request(`/badge/${NAME}%00.svg`), { params: Promise.resolve({ name: [...NAME.split("/").slice(0, -1), "weather%00.svg"] }) });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/image\/svg\+xml/);
  });

  it("are a tool error with invalid_request on the MCP endpoint", async () => {
    const c = await mcp.connect();
    for (const [name, args] of [
      ["catalog_lookup", { name: `${NAME}\u0000` }],
      ["catalog_search", { q: "wea\u0000ther" }],
      ["catalog_preflight", { server_name: `${NAME}\u0000` }],
    ] as const) {
      const r = (await c.callTool({ name, arguments: args })) as { isError?: boolean; structuredContent?: { error?: string } };
      expect(r.isError, name).toBe(true);
      expect(r.structuredContent?.error, name).toBe("invalid_request");
    }
  });
});

// `"\ud800"` is valid JSON, but no text: the drivers write an unpaired surrogate as U+FFFD, so a watch label
// sent with one was answered 200 and stored as other text than was sent. It is refused like a NUL.
describe("inputs holding an unpaired surrogate", () => {
  it("are a 400 invalid_request naming the field on REST bodies; nothing is stored and nothing spent", async () => {
    const a = await keyedAccount(db, { credits: 100 });
    const cases: [string, Promise<Response>][] = [
      ["watch label", watchPost(request("/v1/watch", { body: { server_name: NAME, webhook_url: "https://127.0.0.1:8443/hooks/catalog", label: "a\ud800b" }, key: a.key }))],
      ["watch label (low half alone)", watchPost(request("/v1/watch", { body: { server_name: NAME, webhook_url: "https://127.0.0.1:8443/hooks/catalog", label: "\udc00" }, key: a.key }))],
      ["preflight", preflightPost(request("/v1/preflight", { body: { server_name: `${NAME}\ud800` }, key: a.key }))],
    ];
    for (const [what, pending] of cases) {
      const res = await pending;
      const body = await res.json();
      expect(res.status, what).toBe(400);
      expect(body, what).toMatchObject({ ok: false, error: "invalid_request", message: expect.stringMatching(/^(label|server_name): must be well-formed Unicode/) });
    }
    expect(await db.$count(watches)).toBe(0);
    expect(await walletRemaining(db, a.accountId)).toBe(100);
  });

  it("leave a surrogate pair (an emoji) alone: a label holding one is stored as sent", async () => {
    const a = await keyedAccount(db, { credits: 100 });
    const res = await watchPost(request("/v1/watch", { body: { server_name: NAME, webhook_url: "https://127.0.0.1:8443/hooks/catalog", label: "on call \u{1F6A8}" }, key: a.key }));
    expect(res.status).toBe(200);
    expect((await res.json()).watch.label).toBe("on call \u{1F6A8}");
  });

  it("are a tool error with invalid_request on the MCP endpoint", async () => {
    const c = await mcp.connect();
    const r = (await c.callTool({ name: "catalog_search", arguments: { q: "wea\ud800ther" } })) as { isError?: boolean; structuredContent?: { error?: string } };
    expect(r.isError).toBe(true);
    expect(r.structuredContent?.error).toBe("invalid_request");
  });
});
