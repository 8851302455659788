import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import type { ZodError } from "zod";
import { clipForMessage, describeZodError } from "@/lib/api/request";

type RequestHandler = (request: { method: string; params?: { name?: unknown } }, extra: unknown) => Promise<unknown>;

/** By shape: the SDK's safeParse throws zod core's $ZodError, which is not an instance of the ZodError we import. */
function isZodError(err: unknown): err is ZodError {
  return err instanceof Error && /^\$?ZodError$/.test(err.name) && Array.isArray((err as { issues?: unknown }).issues);
}

/** A JSON-RPC error the SDK answers as it is: `code` and `message` (an McpError would prefix "MCP error -32602:"). */
function rpcError(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/**
 * JSON-RPC protocol errors as the spec has them, for every method and every message of a batch:
 * - params that do not fit the method (a tools/call without a name, a numeric cursor, an initialize without a
 *   protocolVersion) → -32602 Invalid params naming the field. The SDK parses a request's params inside the
 *   handler it registered and answers the thrown validation error with -32603 Internal error and a raw dump;
 * - a tools/call naming no tool of ours → -32602 "Unknown tool: <name>" (the MCP spec's example of a protocol
 *   error); the SDK 1.26 answers a tool result with isError and no Error body.
 * Tool arguments are not touched: their errors are tool results with the REST Error body (runTool).
 * The handlers live in a private map of the SDK's Protocol (there is no public getter); its absence throws here
 * at start-up, so an SDK upgrade that moves it fails every test of /mcp rather than silently answering -32603.
 */
export function answerProtocolErrors(server: McpServer, toolNames: readonly string[]): void {
  const handlers = (server.server as unknown as { _requestHandlers?: Map<string, RequestHandler> })._requestHandlers;
  if (!(handlers instanceof Map)) throw new Error("the MCP SDK's request handler map is not where lib/mcp/protocol-errors.ts expects it");
  const known = new Set(toolNames);
  for (const [method, handler] of handlers) {
    handlers.set(method, async (request, extra) => {
      const name = method === "tools/call" ? request.params?.name : undefined;
      if (typeof name === "string" && !known.has(name)) throw rpcError(ErrorCode.InvalidParams, `Unknown tool: ${clipForMessage(name)}`);
      try {
        return await handler(request, extra);
      } catch (err) {
        if (isZodError(err)) throw rpcError(ErrorCode.InvalidParams, `Invalid params: ${describeZodError(err, "request")}`);
        throw err;
      }
    });
  }
}
