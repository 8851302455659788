import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { getPolicyCatalog } from "@/lib/services/get-policy-catalog";
import { runTool } from "../run-tool";
import { toolData } from "../tool-result";

export function registerCatalogPolicyList(server: McpServer) {
  server.registerTool(
    "catalog_policy_list",
    {
      title: "Policies and ruleset",
      description:
        "Lists the three immutable preflight policies (baseline@1, first-party@1, strict@1), the ruleset they run, and their digests, so you can choose a " +
        "policy for catalog_preflight and explain a decision. Unmetered.",
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (extra) =>
      runTool(extra, {}, null, {}, async () => {
        const catalog = getPolicyCatalog();
        return toolData(catalog, catalog.policies.map((p) => `${p.id} (${p.name}): identity ${p.identity_requirement}, liveness ${p.hosted_liveness}, unknown required → ${p.unknown_required}`).join("\n"));
      }),
  );
}
