import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { JSONRPCMessageSchema, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { callerInputFrom, mergeBatchQuotaHeaders } from "@/lib/quota";
import type { McpAuthExtra } from "@/lib/mcp/run-tool";
import { registerTools } from "@/lib/mcp/register-tools";
import { MCP_INSTRUCTIONS } from "@/lib/mcp/instructions";
import { withLowerCaseMediaTypes } from "@/lib/mcp/transport-request";
import { repeatedArguments } from "@/lib/mcp/repeated-arguments";
import { ENGINE_VERSION } from "@/lib/engine";
import { MCP_MAX_BATCH_MESSAGES } from "@/lib/config";
import { readTextBody } from "@/lib/api/request";
import { ApiError } from "@/lib/api/errors";
import { errorResponse, json } from "@/lib/api/respond";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";
export const maxDuration = 60;

/** Largest JSON-RPC message accepted: the biggest tool input is a 256 KiB config file, JSON-escaped. */
const MAX_MCP_BODY_BYTES = 1024 * 1024;

/** A refusal before any message is read, in JSON-RPC's shape like the transport's own 4xx answers (no id yet). */
function rpcRefusal(status: number, code: number, message: string): Response {
  return json({ jsonrpc: "2.0", id: null, error: { code, message } }, { status });
}

/** The JSON-RPC body, capped in size; a Response for a body that is too large, not JSON or not JSON-RPC. */
async function readMessage(req: Request): Promise<{ parsed: unknown; repeated: Map<string, string> } | Response> {
  let text: string;
  try {
    text = await readTextBody(req, MAX_MCP_BODY_BYTES);
  } catch (err) {
    if (err instanceof ApiError) return rpcRefusal(err.status, -32600, `Invalid Request: ${err.message}`);
    return errorResponse(err, crypto.randomUUID());
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return rpcRefusal(400, -32700, "Parse error: the body is not JSON");
  }
  // JSON-RPC 2.0: JSON that is not a message, or an empty batch, is -32600 Invalid Request (the transport would
  // call the first a parse error and answer the second with a 202 and no body)
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  if (messages.length === 0) return rpcRefusal(400, -32600, "Invalid Request: the batch is empty");
  const version = req.headers.get("mcp-protocol-version");
  if (Array.isArray(parsed) && version && withoutBatches(version)) {
    return rpcRefusal(400, -32600, `Invalid Request: protocol ${version} has no JSON-RPC batches (2025-06-18 removed them); send one message per request`);
  }
  if (messages.length > MCP_MAX_BATCH_MESSAGES) {
    return rpcRefusal(400, -32600, `Invalid Request: the batch holds ${messages.length} messages; send at most ${MCP_MAX_BATCH_MESSAGES} in one request`);
  }
  const bad = messages.findIndex((m) => !JSONRPCMessageSchema.safeParse(m).success);
  if (bad >= 0) {
    const which = Array.isArray(parsed) ? `message ${bad} of the batch` : "the body";
    return rpcRefusal(400, -32600, `Invalid Request: ${which} is not a JSON-RPC 2.0 request, notification or response`);
  }
  // answers are matched to requests by id: two requests of one batch with the same id both ran (and were charged),
  // and only one answer came back (JSON-RPC and MCP forbid reusing an id)
  const ids = messages.flatMap((m) => (m && typeof m === "object" && "method" in m && "id" in m ? [JSON.stringify((m as { id: unknown }).id)] : []));
  const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
  if (repeated !== undefined) return rpcRefusal(400, -32600, `Invalid Request: the batch holds more than one request with id ${repeated}; each request needs its own id`);
  // tool arguments naming a member twice are refused by the tool, as REST refuses such a body (run-tool.ts)
  const repeatedArgs = repeatedArguments(text, parsed);
  if (!repeatedArgs) return rpcRefusal(400, -32600, "Invalid Request: the body nests too deeply to be read");
  return {
    parsed: Array.isArray(parsed) ? withoutSameBatchCancels(parsed).map(withoutTaskAugmentation) : withoutTaskAugmentation(parsed),
    repeated: repeatedArgs,
  };
}

/**
 * A request without its task augmentation (`params.task`, MCP 2025-11-25 Tasks). The endpoint declares no `tasks`
 * capability, and a receiver that declares none "MUST process requests of that type normally, ignoring any
 * task-augmentation metadata"; the SDK answered a tools/call carrying one with -32603 "Server does not support
 * task creation".
 */
function withoutTaskAugmentation(message: unknown): unknown {
  const params = (message as { params?: unknown }).params;
  if (!("method" in (message as object)) || !params || typeof params !== "object" || !("task" in params)) return message;
  const { task: _ignored, ...rest } = params as Record<string, unknown>;
  return { ...(message as object), params: rest };
}

/**
 * A protocol revision that has no JSON-RPC batches: 2025-03-26 brought them and 2025-06-18 removed them (its POST body
 * is one message). A stateless endpoint knows the negotiated revision from MCP-Protocol-Version alone; a value the
 * SDK does not support keeps the transport's own answer.
 */
function withoutBatches(version: string): boolean {
  return SUPPORTED_PROTOCOL_VERSIONS.includes(version) && version >= "2025-06-18";
}

/**
 * A batch without the notifications/cancelled that name one of its own requests. The SDK drops the answer of a
 * cancelled request, and the JSON answer of a batch waits for every request's answer: the HTTP request hung for
 * good (and kept its server). The spec lets a receiver ignore a cancellation of a request it cannot cancel; here
 * the request's answer rides in the very response the client waits for, so it is answered as if not cancelled.
 */
function withoutSameBatchCancels(batch: unknown[]): unknown[] {
  const ids = new Set(batch.flatMap((m) => (m && typeof m === "object" && "method" in m && "id" in m ? [(m as { id: unknown }).id] : [])));
  return batch.filter((m) => {
    const { method, params } = m as { method?: unknown; params?: { requestId?: unknown } };
    return !(method === "notifications/cancelled" && ids.has(params?.requestId));
  });
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

async function mcp(req: Request): Promise<Response> {
  const message = await readMessage(req);
  if (message instanceof Response) return message;
  const server = takeServer();
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    // The API key is read from x-api-key exactly as REST reads it and reaches the tools as auth info.
    let quota: Record<string, string> | undefined;
    const extra: McpAuthExtra = {
      callerInput: callerInputFrom(req),
      quotaSeen: (headers) => (quota = mergeBatchQuotaHeaders(quota, headers)),
      repeatedArguments: message.repeated,
    };
    const res = await transport.handleRequest(withLowerCaseMediaTypes(req), { parsedBody: message.parsed, authInfo: { token: "", clientId: "x-api-key", scopes: [], extra: { ...extra } } });
    // JSON-RPC 2.0 answers a batch with an array; the transport answers a batch holding one request with the bare object
    const body = Array.isArray(message.parsed) && res.status === 200 ? await asBatchAnswer(res) : res.body;
    if (!quota && body === res.body) return res;
    // a metered tool ran: its quota headers, as on a REST response (a 401's caller was never admitted, so none)
    const headers = new Headers(res.headers);
    for (const [k, v] of Object.entries(quota ?? {})) headers.set(k, v);
    if (body !== res.body) headers.delete("content-length");
    return new Response(body, { status: res.status, statusText: res.statusText, headers });
  } finally {
    await server.close().catch(() => {});
    if (idle.length < MAX_IDLE_SERVERS) idle.push(server);
  }
}

/** A batch's JSON answer as an array (the body as it was when it is one already). */
async function asBatchAnswer(res: Response): Promise<string> {
  const text = await res.text();
  return text.trimStart().startsWith("[") ? text : `[${text}]`;
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
