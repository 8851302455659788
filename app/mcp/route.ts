import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { callerInputFrom, quotaHeaders } from "@/lib/quota";
import type { McpAuthExtra } from "@/lib/mcp/run-tool";
import { registerTools } from "@/lib/mcp/register-tools";
import { MCP_INSTRUCTIONS } from "@/lib/mcp/instructions";
import { ENGINE_VERSION } from "@/lib/engine";
import { readTextBody } from "@/lib/api/request";
import { errorResponse, json } from "@/lib/api/respond";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";
export const maxDuration = 60;

/** Largest JSON-RPC message accepted: the biggest tool input is a 256 KiB config file, JSON-escaped. */
const MAX_MCP_BODY_BYTES = 1024 * 1024;

/** The JSON-RPC body, capped in size; null for a body that is not JSON (the transport answers that itself). */
async function readMessage(req: Request): Promise<{ parsed: unknown } | Response> {
  let text: string;
  try {
    text = await readTextBody(req, MAX_MCP_BODY_BYTES);
  } catch (err) {
    return errorResponse(err, crypto.randomUUID());
  }
  try {
    return { parsed: JSON.parse(text) };
  } catch {
    return json({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: the body is not JSON" } }, { status: 400 });
  }
}

/**
 * Stateless streamable HTTP MCP: every request gets its own transport, and no
 * state of one request serves another (a reused server keeps only what an
 * initialize told it, which no tool reads), so any instance can answer any
 * request. This is what mcp-handler does inside, on the SDK's web-standard transport; we use that transport
 * directly because mcp-handler 1.1 re-pipes the answer through a fake Node
 * response that writes into the already-cancelled stream whenever a client
 * disconnects (an unhandled rejection per dropped request), and the extra copy
 * costs throughput (docs/mcp.md). JSON answers, not SSE: no tool streams.
 */
// Servers with their fifteen tools registered, kept between requests: building one costs more than the
// protocol work of a tools/call. Each is connected to one request's transport at a time.
const idle: McpServer[] = [];
const MAX_IDLE_SERVERS = 64;

function takeServer(): McpServer {
  const ready = idle.pop();
  if (ready) return ready;
  const server = new McpServer({ name: "mcp-preflight", version: ENGINE_VERSION }, { instructions: MCP_INSTRUCTIONS });
  registerTools(server);
  return server;
}

/**
 * What is wrong with a single tools/call whose params are not a tool call (no name, arguments that are not an
 * object), or null. The SDK answers such a call with -32603 Internal error and a raw validation dump; the
 * route turns that answer into JSON-RPC's -32602 Invalid params naming the field. Batches are left as they are.
 */
function toolCallParamsProblem(parsed: unknown): string | null {
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed) || (parsed as { method?: unknown }).method !== "tools/call") return null;
  const check = CallToolRequestSchema.safeParse(parsed);
  if (check.success) return null;
  return check.error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join(".") || "request"}: ${i.message}`)
    .join("; ");
}

async function mcp(req: Request): Promise<Response> {
  const message = await readMessage(req);
  if (message instanceof Response) return message;
  const paramsProblem = toolCallParamsProblem(message.parsed);
  const server = takeServer();
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    // The API key is read from x-api-key exactly as REST reads it and reaches the tools as auth info.
    let quota: Record<string, string> | undefined;
    const extra: McpAuthExtra = { callerInput: callerInputFrom(req), quotaSeen: (caller, state) => (quota = quotaHeaders(caller, state)) };
    const res = await transport.handleRequest(req, { parsedBody: message.parsed, authInfo: { token: "", clientId: "x-api-key", scopes: [], extra: { ...extra } } });
    if (paramsProblem && res.status === 200) return asInvalidParams(res, paramsProblem);
    if (!quota) return res;
    // a metered tool ran: its quota headers, as on a REST response (a 401's caller was never admitted, so none)
    const headers = new Headers(res.headers);
    for (const [k, v] of Object.entries(quota)) headers.set(k, v);
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  } finally {
    await server.close().catch(() => {});
    if (idle.length < MAX_IDLE_SERVERS) idle.push(server);
  }
}

/** The SDK's -32603 answer to a malformed tools/call as -32602 Invalid params; any other answer as it was. */
async function asInvalidParams(res: Response, problem: string): Promise<Response> {
  const body = (await res.json()) as { jsonrpc: string; id: unknown; error?: { code: number } };
  const headers = new Headers(res.headers);
  headers.delete("content-length"); // the body is written again
  if (body.error?.code !== -32603) return json(body, { status: res.status, headers });
  return json({ ...body, error: { code: -32602, message: `Invalid params: ${problem}` } }, { status: 200, headers });
}

/**
 * GET (a server-to-client SSE stream) and DELETE (ending a session): a stateless endpoint has neither, and
 * the MCP transport spec's answer for both is 405. A 200 whose stream closed at once made SDK clients
 * re-open it every second for as long as they stayed connected.
 */
function methodNotAllowed(req: Request): Response {
  const what =
    req.method === "GET"
      ? "this endpoint offers no server-to-client stream"
      : req.method === "DELETE"
        ? "this endpoint is stateless: there is no session to end"
        : `${req.method} is not part of streamable HTTP`;
  return json(
    { jsonrpc: "2.0", id: null, error: { code: -32000, message: `Method not allowed: ${what}; send JSON-RPC messages with POST` } },
    { status: 405, headers: { allow: "POST" } },
  );
}

/** What the endpoint answers (Next's own OPTIONS lists every exported handler, the 405s above included). */
function options(): Response {
  return new Response(null, { status: 204, headers: { allow: "POST, OPTIONS" } });
}

export { mcp as POST, methodNotAllowed as GET, methodNotAllowed as DELETE, methodNotAllowed as PUT, methodNotAllowed as PATCH, options as OPTIONS };
