import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { registerDecisionTools } from "./tools/decision-tools";
import { registerCatalogTools } from "./tools/catalog-tools";
import { registerReportTools } from "./tools/report-tools";
import { registerWatchTools } from "./tools/watch-tools";
import { registerAuditTool } from "./tools/audit-tool";
import { registerAccountTools } from "./tools/account-tools";
import { answerProtocolErrors } from "./protocol-errors";
import { advertiseToolSchemas } from "./advertise-tool-schemas";
import { passArgumentsAsSent } from "./arguments-as-sent";

/** The fifteen tools of the contract, in its order of importance for an agent. */
export const TOOL_NAMES = [
  "catalog_search",
  "catalog_lookup",
  "catalog_stats",
  "catalog_recent",
  "catalog_coverage",
  "catalog_watch_subscribe",
  "catalog_watch_list",
  "catalog_watch_unsubscribe",
  "catalog_preflight",
  "catalog_stamp",
  "catalog_audit_config",
  "catalog_changes",
  "catalog_credits",
  "catalog_lookalikes",
  "catalog_policy_list",
] as const;

/**
 * Registers every tool on a fresh server (the endpoint is stateless: one server
 * per request), each with the input schema it parses with (input-schemas.ts) and
 * the output schema its structured content matches (output-schemas.ts).
 * Input is validated by each tool with the REST schema, so a bad argument is a
 * tool error with `invalid_request` like a REST 400, rather than the SDK's own
 * protocol-level message; a request that is not a well-formed call (or names no
 * tool of ours) is a JSON-RPC -32602 (protocol-errors.ts).
 */
export function registerTools(server: McpServer): void {
  // SDK 1.26 validates arguments before a tool runs; ours validate themselves (runTool) to answer like REST.
  (server as unknown as { validateToolInput: (tool: unknown, args: unknown) => Promise<unknown> }).validateToolInput = async (_tool, args) => args;
  registerCatalogTools(server);
  registerReportTools(server);
  registerWatchTools(server);
  registerDecisionTools(server);
  registerAuditTool(server);
  registerAccountTools(server);
  // after the tools: the SDK adds its tools/list and tools/call handlers with the first one
  advertiseToolSchemas(server);
  passArgumentsAsSent(server);
  answerProtocolErrors(server, TOOL_NAMES);
  // McpServer claims listChanged: true with its first tool, but the list is fixed while a process runs and no
  // notifications/tools/list_changed is ever sent; a client need not watch for one
  server.server.registerCapabilities({ tools: { listChanged: false } });
}
