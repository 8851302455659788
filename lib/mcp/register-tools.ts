import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { registerCatalogPreflight } from "./tools/catalog-preflight";
import { registerCatalogStamp } from "./tools/catalog-stamp";
import { registerCatalogPolicyList } from "./tools/catalog-policy-list";
import { registerCatalogCredits } from "./tools/catalog-credits";

/**
 * Registers every tool on a fresh server (the endpoint is stateless: one server
 * per request). Input is validated by each tool with the REST schema, so a bad
 * argument is a tool error with `invalid_request` like a REST 400, rather than
 * the SDK's own protocol-level message.
 */
export function registerTools(server: McpServer): void {
  // SDK 1.26 validates arguments before the tool runs; our tools do it themselves (runTool).
  (server as unknown as { validateToolInput: (tool: unknown, args: unknown) => Promise<unknown> }).validateToolInput = async (_tool, args) => args;
  registerCatalogPreflight(server);
  registerCatalogStamp(server);
  registerCatalogPolicyList(server);
  registerCatalogCredits(server);
}
