import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { getDb } from "@/lib/db/client";
import { preflightInputSchema } from "@/lib/schemas/preflight";
import { preflight, PREFLIGHT_COST } from "@/lib/services/preflight";
import { runTool } from "../run-tool";
import { toolData } from "../tool-result";

export function registerCatalogPreflight(server: McpServer) {
  server.registerTool(
    "catalog_preflight",
    {
      title: "Preflight decision for one MCP server",
      description:
        "Call this before connecting to or installing an MCP server. Give the exact canonical server name (from catalog_search) and optionally a policy " +
        "(builtin:baseline default, builtin:first-party, builtin:strict). Returns PASS, REVIEW or BLOCK with ordered reasons, the facts and their times, " +
        "a validity window and digests. Stop on BLOCK; ask a human on REVIEW; a PASS is only a public-evidence policy result: it is NOT a security finding, " +
        "NOT an install or execution authorization and NOT a sandbox, so permissions and code still need review. refresh=if_stale (API key required) re-probes " +
        `the server's stored endpoints when their liveness is stale. Costs ${PREFLIGHT_COST} credits (a repeat the same UTC day is free).`,
      inputSchema: preflightInputSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, extra) =>
      runTool(extra, args, preflightInputSchema, { metered: true, cost: PREFLIGHT_COST }, async (input, ctx) => {
        const result = await preflight(await getDb(), input, ctx);
        const top = result.reasons.find((r) => r.result === "block") ?? result.reasons.find((r) => r.result === "review" || r.result === "unknown");
        return toolData(
          result,
          `${result.decision} for ${result.server_name} under ${result.policy.id}@1 (valid until ${result.valid_until})` +
            (top ? `: ${top.summary}` : "") +
            (result.decision === "PASS" ? " A PASS is not a security finding or an install authorization." : ""),
        );
      }),
  );
}
