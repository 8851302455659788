import { ENGINE_VERSION } from "@/lib/engine/engine-version";
import { API_OPERATIONS, REQUEST_COMPONENTS, RESPONSE_COMPONENTS, type ApiOperation } from "./operations";
import { inputObjectSchema, jsonSchemaOf } from "./json-schema-of";

type Json = Record<string, unknown>;

/** The contract's API description version (spec/interface.md, Versioning). */
export const API_VERSION = "2.0.0";

const STATUS_TEXT: Record<number, string> = {
  400: "Input violates the closed schema (invalid_request)",
  401: "Missing, invalid or revoked key where one is required (unauthorized)",
  402: "The credit wallet cannot pay (payment_required)",
  403: "Watch limit reached on creation (watch_limit_reached)",
  404: "The exact resource was not found (not_found)",
  409: "A current-liveness refresh is already in progress (refresh_in_progress)",
  413: "Body over the size or entry limit (payload_too_large)",
  429: "Burst, daily, refresh or per-server cooldown limit reached (rate_limited); carries retry_after and reset_at",
  503: "The evaluation of an authenticated call could not be recorded (audit_unavailable)",
};

// lib/quota/quota-headers.ts writes them; a header with no schema here is an integer
const QUOTA_HEADERS: Record<string, string> = {
  "x-tier": "free (no key), registered or pro",
  "x-ratelimit-limit": "size of the window closest to running out, the one x-ratelimit-resource names",
  "x-ratelimit-remaining": "what is left of that window",
  "x-ratelimit-reset": "when that window resets, epoch seconds",
  "x-ratelimit-resource":
    "which window the three x-ratelimit headers describe: burst (requests a minute per key or anonymous IP), daily (an anonymous IP's distinct lookups a day) or audits (an anonymous IP's distinct config audits a day, POST /v1/audit)",
  ratelimit: 'IETF RateLimit: remaining (r) and seconds to reset (t) of every window, e.g. "burst";r=59;t=42',
  "ratelimit-policy": 'IETF RateLimit-Policy: size (q) and length in seconds (w) of every window, e.g. "burst";q=60;w=60',
  "x-credits-remaining": "keyed callers: the wallet after this call",
};

const QUOTA_HEADER_SCHEMAS: Record<string, Json> = {
  "x-tier": { type: "string", enum: ["free", "registered", "pro"] },
  "x-ratelimit-resource": { type: "string", enum: ["burst", "daily", "audits"] },
  ratelimit: { type: "string" },
  "ratelimit-policy": { type: "string" },
};

const quotaHeaderRefs = (): Json => Object.fromEntries(Object.keys(QUOTA_HEADERS).map((h) => [h, { $ref: `#/components/headers/${h}` }]));

/**
 * A component's own `$defs` (zod emits them for recursive types such as JSON values) become components of
 * their own: inside an OpenAPI document `#/$defs/…` would point at the document root, not the component.
 */
function addComponent(out: Record<string, Json>, name: string, schema: Json): void {
  const { $defs, ...rest } = schema as Json & { $defs?: Record<string, Json> };
  const rename = (def: string) => `${name}_${def.replace(/^_+/, "")}`;
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (!node || typeof node !== "object") return node;
    return Object.fromEntries(
      Object.entries(node).map(([k, v]) =>
        k === "$ref" && typeof v === "string" && v.startsWith("#/$defs/") ? [k, `#/components/schemas/${rename(v.slice("#/$defs/".length))}`] : [k, rewrite(v)],
      ),
    );
  };
  out[name] = rewrite(rest) as Json;
  for (const [def, sub] of Object.entries($defs ?? {})) out[rename(def)] = rewrite(sub) as Json;
}

/** Every named component, with cross-references as $ref into components.schemas. */
function componentSchemas(): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [name, schema] of Object.entries(REQUEST_COMPONENTS)) addComponent(out, name, jsonSchemaOf(schema, "input"));
  for (const [name, schema] of Object.entries(RESPONSE_COMPONENTS)) addComponent(out, name, jsonSchemaOf(schema, "output"));
  return out;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function parametersOf(op: ApiOperation): Json[] {
  const params: Json[] = [];
  for (const [name, schema] of Object.entries(op.pathParams ?? {})) {
    params.push({ name, in: "path", required: true, description: op.paramDocs?.[name], schema: jsonSchemaOf(schema, "input") });
  }
  if (op.query) {
    // defaults filled in as parsing gives them, descriptions from the zod schema (MCP's tools/list shows the same)
    const q = inputObjectSchema(op.query) as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, schema] of Object.entries(q.properties ?? {})) {
      params.push({ name, in: "query", required: (q.required ?? []).includes(name), description: op.paramDocs?.[name] ?? schema.description, schema });
    }
  }
  for (const p of params) if (p.description === undefined) delete p.description;
  return params;
}

function operationObject(op: ApiOperation): Json {
  // a key-only operation counts in the key's burst window like a metered one (lib/api/with-caller.ts): it
  // carries the quota headers and may answer 429
  const counted = op.metered === true || op.auth === "required";
  // every /v1 route refuses a query parameter it does not take, or one given twice, with a 400 (README "Query
  // parameters"), routes that take none included; and a counted one may answer 429
  const errors = [...new Set([400, ...op.errors, ...(counted ? [429] : [])])].sort((a, b) => a - b);
  const okHeaders: Json = {};
  if (counted) Object.assign(okHeaders, quotaHeaderRefs());
  if (op.cacheable) {
    okHeaders["cache-control"] = { description: "public, cacheable", schema: { type: "string" } };
    okHeaders.etag = { description: "strong validator; send it back in If-None-Match for a 304", schema: { type: "string" } };
  }
  if (op.path === "/v1/audit") okHeaders["x-catalog-exit-code"] = { description: "0, 1 or 2, as exit_code", schema: { type: "integer", enum: [0, 1, 2] } };

  const content: Json = {};
  if (op.response.component) content["application/json"] = { schema: ref(op.response.component) };
  if (op.response.text) {
    content["text/plain"] = { schema: op.response.textSchema ? jsonSchemaOf(op.response.textSchema, "output") : { type: "string" }, example: op.response.text };
  }
  if (op.path === "/v1/audit") content["text/plain"] = { schema: { type: "string" }, example: "BLOCK\tgithub\tio.github.acme/github\tThe repository https://github.com/acme/github-mcp that the listing names does not exist or is blocked by its host (observed 2026-03-01T00:00:00.000Z).\n" };
  if (op.path === "/v1/openapi.json") content["application/json"] = { schema: { type: "object" } };

  const responses: Json = {
    "200": { description: op.response.description, ...(Object.keys(okHeaders).length ? { headers: okHeaders } : {}), content },
  };
  if (op.cacheable) responses["304"] = { description: "Not modified (If-None-Match matched the ETag)" };
  for (const status of errors) {
    // metered and key-only answers carry the quota headers, errors too, but for the 401 of a refused key
    responses[String(status)] =
      counted && status !== 401
        ? {
            description: STATUS_TEXT[status],
            headers: { ...quotaHeaderRefs(), ...(status === 429 ? { "retry-after": { description: "seconds", schema: { type: "integer" } } } : {}) },
            content: { "application/json": { schema: ref("Error") } },
          }
        : { $ref: `#/components/responses/E${status}` };
  }
  responses["500"] = { $ref: "#/components/responses/E500" };

  const out: Json = {
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    description: op.description,
    "x-cost": op.cost,
    "x-auth": op.auth,
  };
  if (op.mcpTool) out["x-mcp-tool"] = op.mcpTool;
  const params = parametersOf(op);
  if (params.length) out.parameters = params;
  if (op.body && "component" in op.body) {
    out.requestBody = { required: true, content: { "application/json": { schema: ref(op.body.component) } } };
  } else if (op.body) {
    out.requestBody = {
      required: true,
      description: op.body.raw.description,
      content: Object.fromEntries(op.body.raw.contentTypes.map((t) => [t, { schema: { type: "string" } }])),
    };
  }
  // none: no security requirement; optional: anonymous or key; required: key
  if (op.auth === "optional") out.security = [{}, { apiKey: [] }];
  else if (op.auth === "required") out.security = [{ apiKey: [] }];
  else out.security = [];
  out.responses = responses;
  return out;
}

/**
 * The OpenAPI 3.1 document of the API, built from the operation table and the zod schemas the routes use, so
 * the description cannot drift from what the routes accept and our tests hold responses to.
 */
export function buildOpenApiDocument(baseUrl: string): Json {
  const paths: Record<string, Json> = {};
  for (const op of API_OPERATIONS) (paths[op.path] ??= {})[op.method] = operationObject(op);
  const errorResponses: Json = {};
  for (const [status, text] of Object.entries({ ...STATUS_TEXT, 500: "Internal error; the message quotes a request id (internal_error)" })) {
    const headers: Json = status === "429" ? { "retry-after": { description: "seconds", schema: { type: "integer" } } } : {};
    errorResponses[`E${status}`] = { description: text, ...(Object.keys(headers).length ? { headers } : {}), content: { "application/json": { schema: ref("Error") } } };
  }
  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    info: {
      title: "mcp-preflight",
      version: API_VERSION,
      summary: "Public-evidence preflight decisions and evidence cards for MCP servers",
      description:
        "Name one exact server from the MCP registry and get PASS, REVIEW or BLOCK under an immutable policy, with reasons, facts, source times and digests. A PASS is not a security finding, not an install or execution authorization and not a sandbox. The same capabilities are MCP tools at /mcp (streamable HTTP, same x-api-key header).",
      "x-engine-version": ENGINE_VERSION,
    },
    servers: [{ url: baseUrl }],
    tags: ["Decisions", "Catalog", "Reports", "Watches", "Account", "Config audit", "Service"].map((name) => ({ name })),
    paths,
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        apiKey: { type: "apiKey", in: "header", name: "x-api-key", description: "An account API key (catk_…), created on the account page and shown once." },
      },
      headers: Object.fromEntries(
        Object.entries(QUOTA_HEADERS).map(([h, d]) => [h, { description: d, schema: QUOTA_HEADER_SCHEMAS[h] ?? { type: "integer" } }]),
      ),
      responses: errorResponses,
    },
  };
}

let cached: { baseUrl: string; doc: Json } | undefined;

/** The document for this base URL, built once per process (the schemas cannot change while it runs). */
export function openApiDocument(baseUrl: string): Json {
  if (cached?.baseUrl !== baseUrl) cached = { baseUrl, doc: buildOpenApiDocument(baseUrl) };
  return cached.doc;
}
