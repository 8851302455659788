import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ErrorCode, type Tool } from "@modelcontextprotocol/sdk/types.js";
import type { ZodType } from "zod";
import type { ResponseComponent } from "@/lib/openapi/operations";
import type { JsonSchema } from "@/lib/openapi/json-schema-of";
import { toolInputJsonSchema } from "./input-schemas";
import { toolOutputSchema } from "./output-schemas";
import { requestHandlers } from "./request-handlers";
import { rpcError } from "./protocol-errors";

interface ToolSchemas {
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
}

const declared = new WeakMap<McpServer, Map<string, ToolSchemas>>();

/** Records what a tool registered on `server` takes and answers; advertiseToolSchemas puts both in tools/list. */
export function declareToolSchemas(server: McpServer, toolName: string, input: ZodType | null, output: ResponseComponent): void {
  let tools = declared.get(server);
  if (!tools) declared.set(server, (tools = new Map()));
  tools.set(toolName, { inputSchema: toolInputJsonSchema(input), outputSchema: toolOutputSchema(output) });
}

/**
 * Puts each declared tool's inputSchema and outputSchema in the SDK's tools/list answer, in place of the SDK's
 * own conversion: it left out defaults and descriptions of inputs (input-schemas.ts), converted only an object
 * output schema (not the union with the Error body, output-schemas.ts), and did it again on every tools/list.
 * The list is one page with no nextCursor, so any cursor is one this server never issued: the MCP spec's
 * pagination answers that with -32602, where the SDK answered the whole list as if none had been sent.
 */
export function advertiseToolSchemas(server: McpServer): void {
  const handlers = requestHandlers(server);
  const list = handlers.get("tools/list");
  if (!list) throw new Error("advertiseToolSchemas runs after the tools are registered");
  const tools = declared.get(server) ?? new Map<string, ToolSchemas>();
  handlers.set("tools/list", async (request, extra) => {
    // a cursor that is no string is left to the SDK's parse, which names it (protocol-errors.ts)
    if (typeof request.params?.cursor === "string") throw rpcError(ErrorCode.InvalidParams, "Invalid params: params.cursor: not a cursor this server issued (it lists every tool in one page, without nextCursor)");
    const result = (await list(request, extra)) as { tools: Tool[] };
    return { ...result, tools: result.tools.map((t) => ({ ...t, ...(tools.get(t.name) as Partial<Tool> | undefined) })) };
  });
}
