import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import type { ZodError } from "zod";
import { clipForMessage, describeZodError } from "@/lib/api/request";
import { requestHandlers } from "./request-handlers";

/** By shape: the SDK's safeParse throws zod core's $ZodError, which is not an instance of the ZodError we import. */
function isZodError(err: unknown): err is ZodError {
  return err instanceof Error && /^\$?ZodError$/.test(err.name) && Array.isArray((err as { issues?: unknown }).issues);
}

/** A JSON-RPC error the SDK answers as it is: `code` and `message` (an McpError would prefix "MCP error -32602:"). */
export function rpcError(code: number, message: string): Error {
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
 */
export function answerProtocolErrors(server: McpServer, toolNames: readonly string[]): void {
  const handlers = requestHandlers(server);
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
