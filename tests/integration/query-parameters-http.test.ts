import { beforeEach, describe, expect, it } from "vitest";
import { GET as policiesGet } from "@/app/v1/policies/route";
import { POST as preflightPost } from "@/app/v1/preflight/route";
import { GET as stampGet } from "@/app/v1/stamp/route";
import { GET as evaluationsGet } from "@/app/v1/evaluations/route";
import { GET as evaluationGet } from "@/app/v1/evaluations/[id]/route";
import { GET as searchGet } from "@/app/v1/search/route";
import { GET as serverGet } from "@/app/v1/server/route";
import { GET as lookalikesGet } from "@/app/v1/lookalikes/route";
import { GET as statsGet } from "@/app/v1/stats/route";
import { GET as recentGet } from "@/app/v1/recent/route";
import { GET as coverageGet } from "@/app/v1/coverage/route";
import { GET as healthGet } from "@/app/v1/health/route";
import { GET as openApiGet } from "@/app/v1/openapi.json/route";
import { GET as creditsGet } from "@/app/v1/credits/route";
import { GET as changesGet } from "@/app/v1/changes/route";
import { DELETE as watchDelete, GET as watchGet, POST as watchPost } from "@/app/v1/watch/route";
import { GET as deliveriesGet } from "@/app/v1/watch/deliveries/route";
import { POST as rotatePost } from "@/app/v1/watch/rotate-secret/route";
import { POST as auditPost } from "@/app/v1/audit/route";
import { POST as resolvePost } from "@/app/v1/resolve/route";
import { GET as unknownRouteGet } from "@/app/v1/[...path]/route";
import { PUT as statsPut } from "@/app/v1/stats/route";
import { GET as badgeGet } from "@/app/badge/[...name]/route";
import { POST as mcpPost } from "@/app/mcp/route";
import type { Db } from "@/lib/db/client";
import { resetDb } from "../helpers/db";
import { keyedAccount, loadFixtureCatalog, request, walletRemaining } from "../helpers/catalog-fixture";

// vitest sets BASE_URL=/ (Vite's base path), which siteUrl() would otherwise read
process.env.SITE_URL = "http://localhost:3000";

const OWNER = "owner@example.test";
const SERVER = "io.github.acme/weather";
const CONFIG = JSON.stringify({ mcpServers: { weather: { command: "npx", args: ["-y", "@acme/mcp-weather"] } } });
const WATCH_ID = "wat_0123456789abcdef";

type Handler = (req: Request) => Promise<Response> | Response;

/**
 * Every /v1 route a client calls, with a valid call: `path` holds the route's own parameters (none where it
 * takes none), and the same call with `bogus=1` added must be refused. `dup` is the parameter given twice.
 */
const V1_ROUTES: { route: string; method: string; path: string; handler: Handler; key?: boolean; body?: string; dup?: string }[] = [
  { route: "GET /v1/policies", method: "GET", path: "/v1/policies", handler: policiesGet },
  { route: "POST /v1/preflight", method: "POST", path: "/v1/preflight", handler: preflightPost, key: true, body: JSON.stringify({ server_name: SERVER }) },
  { route: "GET /v1/stamp", method: "GET", path: `/v1/stamp?name=${SERVER}`, handler: stampGet, key: true, dup: `name=${SERVER}` },
  { route: "GET /v1/evaluations", method: "GET", path: "/v1/evaluations", handler: evaluationsGet, key: true },
  {
    route: "GET /v1/evaluations/{id}",
    method: "GET",
    path: "/v1/evaluations/00000000-0000-4000-8000-000000000000",
    handler: (req) => evaluationGet(req, { params: Promise.resolve({ id: "00000000-0000-4000-8000-000000000000" }) }),
    key: true,
  },
  { route: "GET /v1/search", method: "GET", path: "/v1/search?q=weather&limit=5", handler: searchGet, key: true, dup: "limit=6" },
  { route: "GET /v1/server", method: "GET", path: `/v1/server?name=${SERVER}`, handler: serverGet, key: true, dup: `name=${SERVER}` },
  { route: "GET /v1/lookalikes", method: "GET", path: `/v1/lookalikes?name=${SERVER}`, handler: lookalikesGet, key: true, dup: `name=${SERVER}` },
  { route: "GET /v1/stats", method: "GET", path: "/v1/stats", handler: statsGet },
  { route: "GET /v1/recent", method: "GET", path: "/v1/recent?limit=2", handler: recentGet, dup: "limit=3" },
  { route: "GET /v1/coverage", method: "GET", path: "/v1/coverage", handler: coverageGet },
  { route: "GET /v1/health", method: "GET", path: "/v1/health", handler: healthGet },
  { route: "GET /v1/openapi.json", method: "GET", path: "/v1/openapi.json", handler: openApiGet },
  { route: "GET /v1/credits", method: "GET", path: "/v1/credits", handler: creditsGet, key: true },
  { route: "GET /v1/changes", method: "GET", path: "/v1/changes?limit=5", handler: changesGet, dup: "limit=6" },
  { route: "POST /v1/watch", method: "POST", path: "/v1/watch", handler: watchPost, key: true, body: JSON.stringify({ server_name: SERVER, email: OWNER }) },
  { route: "GET /v1/watch", method: "GET", path: "/v1/watch", handler: watchGet, key: true },
  { route: "DELETE /v1/watch", method: "DELETE", path: `/v1/watch?id=${WATCH_ID}`, handler: watchDelete, key: true, dup: `id=${WATCH_ID}` },
  { route: "GET /v1/watch/deliveries", method: "GET", path: `/v1/watch/deliveries?id=${WATCH_ID}`, handler: deliveriesGet, key: true, dup: `id=${WATCH_ID}` },
  { route: "POST /v1/watch/rotate-secret", method: "POST", path: `/v1/watch/rotate-secret?id=${WATCH_ID}`, handler: rotatePost, key: true, dup: `id=${WATCH_ID}` },
  { route: "POST /v1/audit", method: "POST", path: "/v1/audit?strict=1", handler: auditPost, key: true, body: CONFIG, dup: "strict=0" },
  { route: "POST /v1/resolve", method: "POST", path: "/v1/resolve?filename=.mcp.json", handler: resolvePost, body: CONFIG, dup: "filename=mcp.json" },
];

let db: Db;
let key: string;
let accountId: string;
beforeEach(async () => {
  db = await resetDb();
  await loadFixtureCatalog(db);
  ({ key, accountId } = await keyedAccount(db, { credits: 500, email: OWNER }));
});

const withParam = (path: string, param: string) => `${path}${path.includes("?") ? "&" : "?"}${param}`;
const call = (r: (typeof V1_ROUTES)[number], path: string) =>
  r.handler(request(path, { method: r.method, key: r.key ? key : undefined, body: r.body }));

describe("query parameters on the /v1 API", () => {
  it.each(V1_ROUTES)("$route refuses an unknown parameter with a 400 naming it, spending nothing", async (r) => {
    // the call as it stands is not a 400: what the refusal below refuses is the parameter alone
    const valid = await call(r, r.path);
    expect(valid.status, await valid.clone().text()).not.toBe(400);
    const before = await walletRemaining(db, accountId);
    const res = await call(r, withParam(r.path, "bogus=1"));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ ok: false, error: "invalid_request", message: 'query: unknown parameter(s) "bogus"' });
    expect(await walletRemaining(db, accountId)).toBe(before);
  });

  it.each(V1_ROUTES)("$route lists that 400 in the OpenAPI document", async (r) => {
    const doc = await (await openApiGet(request("/v1/openapi.json"))).json();
    const [method, path] = r.route.split(" ");
    expect(Object.keys(doc.paths[path][method.toLowerCase()].responses)).toContain("400");
  });

  it.each(V1_ROUTES)("$route refuses a parameter given twice", async (r) => {
    const param = r.dup ?? "bogus=1";
    const twice = r.dup ? withParam(r.path, param) : withParam(withParam(r.path, param), param);
    const res = await call(r, twice);
    expect(res.status).toBe(400);
    const name = param.split("=")[0];
    expect(await res.json()).toEqual({ ok: false, error: "invalid_request", message: `${name}: given more than once; send it once` });
  });

  it("answers a wrong path (404) or method (405) as such, whatever the query", async () => {
    expect((await unknownRouteGet(request("/v1/nope?bogus=1"))).status).toBe(404);
    expect((await statsPut(request("/v1/stats?bogus=1", { method: "PUT" }))).status).toBe(405);
  });
});

describe("query parameters outside the /v1 API", () => {
  it("the badge ignores what an embed adds (cache-busting, unknown or repeated options) and serves the same image", async () => {
    const plain = await badgeGet(request(`/badge/${SERVER}.svg`), { params: Promise.resolve({ name: SERVER.split("/") }) });
    expect(plain.status).toBe(200);
    const svg = await plain.text();
    for (const query of ["v=2", "bogus=1&bogus=2", "style=nope", "t=1&style=flat&style=plastic"]) {
      const res = await badgeGet(request(`/badge/${SERVER}.svg?${query}`), { params: Promise.resolve({ name: SERVER.split("/") }) });
      expect(res.status, query).toBe(200);
      expect(res.headers.get("etag"), query).toBe(plain.headers.get("etag"));
      expect(await res.text(), query).toBe(svg);
    }
  });

  it("/mcp reads its input from the JSON-RPC body, not the query string", async () => {
    const res = await mcpPost(
      request("/mcp?bogus=1", {
        body: { jsonrpc: "2.0", id: 1, method: "tools/list" },
        headers: { accept: "application/json, text/event-stream" },
      }),
    );
    expect(res.status).toBe(200);
    expect((await res.json()).result.tools.length).toBe(15);
  });
});
