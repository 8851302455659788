import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";

export type RequestHandler = (request: { method: string; params?: Record<string, unknown> }, extra: unknown) => Promise<unknown>;

/**
 * The SDK server's request handlers by method, to wrap the ones McpServer installs (tools/list, tools/call).
 * They live in a private map of the SDK's Protocol (there is no public getter); its absence throws here at
 * start-up, so an SDK upgrade that moves it fails every test of /mcp rather than silently dropping a wrapper.
 */
export function requestHandlers(server: McpServer): Map<string, RequestHandler> {
  const handlers = (server.server as unknown as { _requestHandlers?: Map<string, RequestHandler> })._requestHandlers;
  if (!(handlers instanceof Map)) throw new Error("the MCP SDK's request handler map is not where lib/mcp/request-handlers.ts expects it");
  return handlers;
}
