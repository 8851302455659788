import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { getDb } from "@/lib/db/client";
import { preflightInputSchema } from "@/lib/schemas/preflight";
import { PREFLIGHT_COST } from "@/lib/services/preflight";
import { stamp } from "@/lib/services/stamp";
import { runTool } from "../run-tool";
import { toolData } from "../tool-result";

export function registerCatalogStamp(server: McpServer) {
  server.registerTool(
    "catalog_stamp",
    {
      title: "Compact preflight stamp",
      description:
        "The same decision as catalog_preflight (same input, same rules, same cost) as one CATALOG-STAMP/1 line to paste into a log, a pull request or a " +
        "config comment: decision, server, policy, facts and input digests, evaluation time, validity and audit id. Stop on BLOCK, ask a human on REVIEW; " +
        `a PASS is not a security finding. Costs ${PREFLIGHT_COST} credits.`,
      inputSchema: preflightInputSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, extra) =>
      runTool(extra, args, preflightInputSchema, { metered: true, cost: PREFLIGHT_COST }, async (input, ctx) => {
        const line = await stamp(await getDb(), input, ctx);
        return toolData({ ok: true, stamp: line }, line);
      }),
  );
}
