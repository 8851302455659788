import fs from "node:fs";
import path from "node:path";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { Db } from "@/lib/db/client";
import { GET as openapiGet } from "@/app/v1/openapi.json/route";
import { GET as policiesGet } from "@/app/v1/policies/route";
import { POST as preflightPost } from "@/app/v1/preflight/route";
import { GET as serverGet } from "@/app/v1/server/route";
import { GET as searchGet } from "@/app/v1/search/route";
import { GET as changesGet } from "@/app/v1/changes/route";
import { GET as statsGet } from "@/app/v1/stats/route";
import { GET as creditsGet } from "@/app/v1/credits/route";
import { GET as watchGet, POST as watchPost } from "@/app/v1/watch/route";
import { GET as lookalikesGet } from "@/app/v1/lookalikes/route";
import { GET as stampGet } from "@/app/v1/stamp/route";
import { POST as auditPost } from "@/app/v1/audit/route";
import { API_OPERATIONS } from "@/lib/openapi/operations";
import { resetDb } from "../helpers/db";
import { keyedAccount, request } from "../helpers/catalog-fixture";
import { PAGE_SERVERS, seedPageFixture } from "../helpers/page-fixture";

// vitest sets BASE_URL=/ (Vite's base path), which siteUrl() would otherwise read
process.env.SITE_URL = "http://localhost:3000";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The contract's endpoint table (spec/interface.md, Endpoints), /v1 paths. */
const CONTRACT = [
  "get /v1/policies",
  "post /v1/preflight",
  "get /v1/stamp",
  "get /v1/evaluations",
  "get /v1/evaluations/{id}",
  "get /v1/search",
  "get /v1/server",
  "get /v1/stats",
  "get /v1/recent",
  "get /v1/coverage",
  "post /v1/watch",
  "get /v1/watch",
  "delete /v1/watch",
  "get /v1/credits",
  "post /v1/audit",
  "post /v1/resolve",
  "get /v1/changes",
];

let doc: Json;
let db: Db;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

beforeAll(async () => {
  const res = await openapiGet(request("/v1/openapi.json"));
  expect(res.status).toBe(200);
  doc = await res.json();
  ajv.addSchema({ $id: "openapi", components: doc.components });
});
beforeEach(async () => {
  db = await resetDb();
  await seedPageFixture(db);
});

const operations = () => Object.entries(doc.paths as Json).flatMap(([p, item]) => Object.keys(item).map((m) => `${m} ${p}`));

/** Checks a live body against the document's component, so the document describes what routes really send. */
function conforms(component: string, body: unknown) {
  const validate = ajv.getSchema(`openapi#/components/schemas/${component}`)!;
  expect(validate, component).toBeTypeOf("function");
  const ok = validate(body);
  expect(ok ? [] : validate.errors!.slice(0, 5).map((e) => `${e.instancePath} ${e.message}`), component).toEqual([]);
}

describe("GET /v1/openapi.json", () => {
  it("is an OpenAPI 3.1 document with the x-api-key scheme and every /v1 endpoint of the contract", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("2.0.0");
    expect(doc.components.securitySchemes).toEqual({ apiKey: expect.objectContaining({ type: "apiKey", in: "header", name: "x-api-key" }) });
    const ops = operations();
    for (const op of CONTRACT) expect(ops, op).toContain(op);
  });

  it("lists exactly the methods the route files under app/v1 export", () => {
    const root = path.join(process.cwd(), "app/v1");
    const found: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.name === "route.ts" && !p.includes("[...path]")) {
          const src = fs.readFileSync(p, "utf8");
          const route = `/v1/${path.relative(root, dir)}`.replace(/\[(\w+)\]/g, "{$1}");
          for (const m of src.matchAll(/export (?:const|async function|function) (GET|POST|DELETE|PUT|PATCH)\b/g)) found.push(`${m[1].toLowerCase()} ${route}`);
        }
      }
    };
    walk(root);
    expect(operations().sort()).toEqual(found.sort());
  });

  it("says which calls need a key, and every $ref resolves", () => {
    for (const op of API_OPERATIONS) {
      const o = doc.paths[op.path][op.method];
      const expected = op.auth === "required" ? [{ apiKey: [] }] : op.auth === "optional" ? [{}, { apiKey: [] }] : [];
      expect(o.security, `${op.method} ${op.path}`).toEqual(expected);
      if (op.auth === "required") expect(o.responses["401"], `${op.method} ${op.path}`).toEqual({ $ref: "#/components/responses/E401" });
    }
    const refs = JSON.stringify(doc).match(/"\$ref":"#\/[^"]+"/g)!;
    expect(refs.length).toBeGreaterThan(50);
    for (const r of new Set(refs)) {
      const pointer = r.slice(9, -1).split("/").slice(1);
      const target = pointer.reduce<unknown>((node, key) => (node as Json | undefined)?.[key], doc);
      expect(target, r).toBeDefined();
    }
  });

  it("declares the quota headers on a metered operation's errors too, but for the 401 of a refused key", () => {
    const responses = doc.paths["/v1/preflight"].post.responses;
    for (const status of ["200", "404", "429"]) expect(Object.keys(responses[status].headers ?? {}), status).toEqual(expect.arrayContaining(["x-tier", "x-ratelimit-remaining"]));
    expect(responses["429"].headers["retry-after"]).toBeDefined();
    expect(responses["401"]).toEqual({ $ref: "#/components/responses/E401" });
    expect(doc.components.headers["x-tier"].schema).toEqual({ type: "string", enum: ["free", "registered", "pro"] });
  });

  it("declares 429 and the quota headers on every operation that needs a key, paid or not (one burst window per key)", () => {
    for (const [p, item] of Object.entries(doc.paths as Json)) {
      for (const [m, op] of Object.entries(item as Json)) {
        if (op["x-auth"] !== "required") continue;
        expect(Object.keys(op.responses), `${m} ${p}`).toContain("429");
        expect(Object.keys(op.responses["200"].headers ?? {}), `${m} ${p}`).toContain("x-ratelimit-remaining");
      }
    }
  });

  it("declares every quota header a counted answer carries, with a schema its value fits", async () => {
    const a = await keyedAccount(db);
    const config = JSON.stringify({ mcpServers: { x: { command: "npx", args: ["-y", "no-such-package"] } } });
    const answers: [string, string, Response][] = [
      ["/v1/search", "get", await searchGet(request("/v1/search?q=weather", { key: a.key }))],
      ["/v1/search", "get", await searchGet(request("/v1/search?q=weather", { ip: "198.51.100.41" }))],
      ["/v1/preflight", "post", await preflightPost(request("/v1/preflight", { body: { server_name: PAGE_SERVERS.pass }, ip: "198.51.100.41" }))],
      // a keyless audit is counted in its own daily window (x-ratelimit-resource: audits)
      ["/v1/audit", "post", await auditPost(request("/v1/audit", { body: config, ip: "198.51.100.41" }))],
      ["/v1/audit", "post", await auditPost(request("/v1/audit", { body: "{", ip: "198.51.100.42" }))],
    ];
    const resources = new Set<string>();
    for (const [p, m, res] of answers) {
      const declared = doc.paths[p][m].responses[String(res.status)].headers as Json;
      for (const [name, value] of res.headers) {
        if (!/^(x-tier|x-ratelimit-|x-credits-|ratelimit)/.test(name)) continue;
        const header = declared?.[name]?.$ref ? doc.components.headers[declared[name].$ref.split("/").pop()] : declared?.[name];
        expect(header, `${res.status} ${m} ${p}: ${name}`).toBeDefined();
        const typed = header.schema.type === "integer" ? Number(value) : value;
        expect(ajv.compile(header.schema)(typed), `${name}: ${value}`).toBe(true);
        if (name === "x-ratelimit-resource") resources.add(value);
      }
    }
    expect([...resources].sort()).toEqual(["audits", "burst", "daily"]);
  });

  it("describes query parameters from the routes' schemas (names, required, defaults)", () => {
    const params = (p: string, m = "get") => Object.fromEntries((doc.paths[p][m].parameters as Json[]).map((x) => [x.name, x]));
    expect(params("/v1/search").q).toMatchObject({ in: "query", required: true, schema: { minLength: 2, maxLength: 200 } });
    expect(params("/v1/search").limit).toMatchObject({ required: false, description: "how many results, 1 to 50 (default 20)", schema: { minimum: 1, maximum: 50, default: 20 } });
    // every query parameter says what it is, in the words of its zod schema (which MCP's tools/list shows too)
    for (const [p, item] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
      for (const [m, op] of Object.entries(item)) {
        for (const x of (op.parameters ?? []) as Json[]) expect(x.description, `${m} ${p} ${x.name}`).toMatch(/\w{3}/);
      }
    }
    expect(params("/v1/audit", "post").strict.schema).toMatchObject({ default: false });
    expect(params("/v1/stamp").policy_id.schema).toMatchObject({ default: "builtin:baseline" });
    expect(params("/v1/recent").limit.schema).toMatchObject({ minimum: 1, maximum: 100, default: 20 });
    expect(Object.keys(params("/v1/changes")).sort()).toEqual(["before", "kind", "limit", "server_name", "since"]);
    expect(params("/v1/changes").limit.schema).toMatchObject({ default: 100, maximum: 500 });
    // minimum and maximum bind a number only: the text form a query string carries is bounded by its pattern
    const searchLimit = ajv.compile(params("/v1/search").limit.schema);
    expect([1, 50, "1", "50", "007"].map((v) => searchLimit(v))).toEqual([true, true, true, true, true]);
    expect([0, 51, "0", "51", "99999999999999999999", "5x", ""].map((v) => searchLimit(v))).toEqual([false, false, false, false, false, false, false]);
    const changesLimit = ajv.compile(params("/v1/changes").limit.schema);
    expect(["500", "501"].map((v) => changesLimit(v))).toEqual([true, false]);
    expect(params("/v1/stamp").name).toMatchObject({ required: true });
    expect(params("/v1/evaluations/{id}").id).toMatchObject({ in: "path", required: true, schema: { format: "uuid" } });
    const body = doc.components.schemas.PreflightInput;
    expect(body).toMatchObject({ type: "object", required: ["server_name"], additionalProperties: false });
    expect(body.properties.policy_id.enum).toEqual(["builtin:baseline", "builtin:first-party", "builtin:strict"]);
  });

  it("matches what the routes answer, successes and the Error body", async () => {
    const a = await keyedAccount(db);
    const key = a.key;
    const body = async (res: Response, status = 200) => {
      expect(res.status).toBe(status);
      return res.json();
    };
    conforms("PolicyCatalog", await body(await policiesGet(request("/v1/policies"))));
    conforms("PreflightResult", await body(await preflightPost(request("/v1/preflight", { key, body: { server_name: PAGE_SERVERS.pass } }))));
    conforms("HealthCardResponse", await body(await serverGet(request(`/v1/server?name=${PAGE_SERVERS.review}`, { key }))));
    conforms("SearchResult", await body(await searchGet(request("/v1/search?q=weather", { key }))));
    conforms("LookalikesResult", await body(await lookalikesGet(request(`/v1/lookalikes?name=${PAGE_SERVERS.pass}`, { key }))));
    conforms("ChangeFeed", await body(await changesGet(request("/v1/changes?limit=2"))));
    conforms("StatsReport", await body(await statsGet(request("/v1/stats"))));
    conforms("CreditsResult", await body(await creditsGet(request("/v1/credits", { key }))));
    conforms("WatchCreateResponse", await body(await watchPost(request("/v1/watch", { key, body: { server_name: PAGE_SERVERS.pass, email: "me@example.com" } }))));
    conforms("WatchListResponse", await body(await watchGet(request("/v1/watch", { key }))));
    // the stamp's text/plain answer as sent (the line and its newline), by the schema the document gives it;
    // catalog_stamp's StampResult holds the same line without the newline
    const stampText = await (await stampGet(request(`/v1/stamp?name=${PAGE_SERVERS.pass}`, { key }))).text();
    const stampBody = ajv.compile(doc.paths["/v1/stamp"].get.responses["200"].content["text/plain"].schema);
    expect(stampBody(stampText), JSON.stringify(stampBody.errors)).toBe(true);
    conforms("StampResult", { ok: true, stamp: stampText.trimEnd() });
    expect(stampBody(doc.paths["/v1/stamp"].get.responses["200"].content["text/plain"].example)).toBe(true);
    expect(stampBody("CATALOG-STAMP/1 MAYBE x builtin:baseline@1\n")).toBe(false);
    conforms("Error", await body(await serverGet(request("/v1/server?name=io.github.nobody/x", { key })), 404));
    conforms("Error", await body(await preflightPost(request("/v1/preflight", { body: { server_name: "x", extra: 1 } })), 400));

    // an oversize JSON body is refused before it is parsed (413): the document must list what the route answers
    const oversize = JSON.stringify({ server_name: PAGE_SERVERS.pass, label: "x".repeat(70_000) });
    for (const [path, post] of [
      ["/v1/preflight", preflightPost],
      ["/v1/watch", watchPost],
    ] as const) {
      const res = await post(request(path, { key, body: oversize }));
      conforms("Error", await body(res, 413));
      expect(Object.keys(doc.paths[path].post.responses), path).toContain("413");
    }

    // and it can fail: a body the document does not allow
    const validate = ajv.getSchema("openapi#/components/schemas/PreflightInput")!;
    expect(validate({ server_name: PAGE_SERVERS.pass, refresh: "always" })).toBe(false);
    expect(validate({ server_name: PAGE_SERVERS.pass, extra: true })).toBe(false);
  });
});
