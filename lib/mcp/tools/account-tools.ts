import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { getCredits } from "@/lib/services/get-credits";
import { defineTool } from "../run-tool";

export function registerAccountTools(server: McpServer) {
  defineTool(server, {
    name: "catalog_credits",
    title: "Credit wallet",
    description: "The API key's credit wallet: remaining, this month's grant and purchased credits. Needs an API key (x-api-key). Unmetered.",
    schema: null,
    options: { keyRequired: true },
    output: "CreditsResult",
    run: async (_input, { caller }) => {
      const w = await getCredits(caller);
      return { data: w, summary: `${w.remaining} credits remaining (grant ${w.grant}, purchased ${w.purchased}; period ends ${w.period_end})` };
    },
  });
}
