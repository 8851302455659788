import { createMcpHandler } from "mcp-handler";
import { callerInputFrom } from "@/lib/quota";
import { registerTools } from "@/lib/mcp/register-tools";
import { MCP_INSTRUCTIONS } from "@/lib/mcp/instructions";
import { ENGINE_VERSION } from "@/lib/engine";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";
export const maxDuration = 60;

// Stateless streamable HTTP: every request gets a fresh server, so any instance can answer it.
const handler = createMcpHandler(registerTools, { serverInfo: { name: "mcp-preflight", version: ENGINE_VERSION }, instructions: MCP_INSTRUCTIONS }, {
  basePath: "",
  disableSse: true,
  maxDuration: 60,
});

/** The API key is read from x-api-key exactly as REST reads it, and reaches the tools as auth info. */
async function mcp(req: Request): Promise<Response> {
  (req as Request & { auth?: unknown }).auth = { token: "", clientId: "x-api-key", scopes: [], extra: { callerInput: callerInputFrom(req) } };
  return handler(req);
}

export { mcp as GET, mcp as POST, mcp as DELETE };
