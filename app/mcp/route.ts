import { createMcpHandler } from "mcp-handler";
import { callerInputFrom } from "@/lib/quota";
import { readBinaryBody } from "@/lib/api/request";
import { errorResponse } from "@/lib/api/respond";
import { registerTools } from "@/lib/mcp/register-tools";
import { MCP_INSTRUCTIONS } from "@/lib/mcp/instructions";
import { ENGINE_VERSION } from "@/lib/engine";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";
export const maxDuration = 60;

/** Largest JSON-RPC message accepted: the biggest tool input is a 256 KiB config file, JSON-escaped. */
const MAX_MCP_BODY_BYTES = 1024 * 1024;

// Stateless streamable HTTP: every request gets a fresh server, so any instance can answer it.
const handler = createMcpHandler(registerTools, { serverInfo: { name: "mcp-preflight", version: ENGINE_VERSION }, instructions: MCP_INSTRUCTIONS }, {
  basePath: "",
  disableSse: true,
  maxDuration: 60,
});

/**
 * The API key is read from x-api-key exactly as REST reads it and reaches the
 * tools as auth info. The handler gets a copy of the request that a client
 * disconnect does not abort: mcp-handler 1.1 writes the answer into a stream it
 * has already closed on abort, which surfaces as an unhandled rejection.
 */
async function mcp(req: Request): Promise<Response> {
  let body: Buffer | undefined;
  if (req.method !== "GET" && req.method !== "HEAD") {
    try {
      body = await readBinaryBody(req, MAX_MCP_BODY_BYTES);
    } catch (err) {
      return errorResponse(err, crypto.randomUUID());
    }
  }
  const detached = new Request(req.url, { method: req.method, headers: req.headers, body: body ? new Uint8Array(body) : undefined, signal: new AbortController().signal }) as Request & { auth?: unknown };
  detached.auth = { token: "", clientId: "x-api-key", scopes: [], extra: { callerInput: callerInputFrom(req) } };
  return handler(detached);
}

export { mcp as GET, mcp as POST, mcp as DELETE };
