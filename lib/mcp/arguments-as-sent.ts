import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { requestHandlers } from "./request-handlers";

/** What the tools/call wrapper below adds to the handler's extra: the call's `arguments` before the SDK parsed them. */
export interface ArgumentsAsSent {
  argumentsAsSent?: unknown;
}

/**
 * Hands each tool its arguments exactly as the client sent them, for runTool to validate with the REST schema. The
 * SDK parses a tools/call with zod, whose record parsing drops an own `__proto__` key (JSON.parse keeps one, and a
 * REST body holding it is a 400 unknown field): the tool ran, and charged, as if the argument had not been sent.
 * Arguments that are not an object never get here: the SDK's parse refuses them first (-32602, protocol-errors.ts).
 */
export function passArgumentsAsSent(server: McpServer): void {
  const handlers = requestHandlers(server);
  const call = handlers.get("tools/call");
  if (!call) throw new Error("passArgumentsAsSent runs after the tools are registered");
  handlers.set("tools/call", (request, extra) => call(request, { ...(extra as object), argumentsAsSent: request.params?.arguments } satisfies ArgumentsAsSent));
}
