import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { getCredits } from "@/lib/services/get-credits";
import { runTool } from "../run-tool";
import { toolData } from "../tool-result";

export function registerCatalogCredits(server: McpServer) {
  server.registerTool(
    "catalog_credits",
    {
      title: "Credit wallet",
      description: "Shows the API key's credit wallet: remaining, this month's grant and purchased credits. Needs an API key (x-api-key). Unmetered.",
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (extra) =>
      runTool(extra, {}, null, { keyRequired: true }, async (_input, { caller }) => {
        const w = await getCredits(caller);
        return toolData(w, `${w.remaining} credits remaining (grant ${w.grant}, purchased ${w.purchased}; period ends ${w.period_end})`);
      }),
  );
}
