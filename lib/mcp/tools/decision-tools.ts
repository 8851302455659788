import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { getDb } from "@/lib/db/client";
import { preflightInputSchema, type PreflightResult } from "@/lib/schemas/preflight";
import { preflight, PREFLIGHT_COST } from "@/lib/services/preflight";
import { stamp } from "@/lib/services/stamp";
import { getPolicyCatalog } from "@/lib/services/get-policy-catalog";
import { defineTool } from "../run-tool";

const NOT_A_FINDING = "A PASS is only a public-evidence policy result: it is NOT a security finding, NOT an install or execution authorization and NOT a sandbox.";

export function registerDecisionTools(server: McpServer) {
  defineTool(server, {
    name: "catalog_preflight",
    title: "Preflight decision for one MCP server",
    description:
      "Call this before connecting to or installing an MCP server. Give the exact canonical server name (from catalog_search) and optionally a policy " +
      "(builtin:baseline default, builtin:first-party, builtin:strict). Returns PASS, REVIEW or BLOCK with ordered reasons, the facts and their times, a validity " +
      `window and digests. Stop on BLOCK; ask a human on REVIEW. ${NOT_A_FINDING} Permissions and code still need review. refresh=if_stale (API key required) ` +
      `re-probes the server's stored endpoints when their liveness is stale. Costs ${PREFLIGHT_COST} credits (a repeat the same UTC day is free).`,
    schema: preflightInputSchema,
    // refresh=if_stale probes the server's own remote endpoint
    hints: { openWorld: true },
    options: { metered: true, cost: PREFLIGHT_COST },
    output: "PreflightResult",
    run: async (input, ctx) => {
      const result = await preflight(await getDb(), input, ctx);
      const top = result.reasons.find((r) => r.result === "block") ?? result.reasons.find((r) => r.result === "review" || r.result === "unknown");
      return {
        // the engine types an evidence value as unknown; it is always JSON, read from the facts
        data: result as PreflightResult,
        summary:
          `${result.decision} for ${result.server_name} under ${result.policy.id}@1 (valid until ${result.valid_until})` +
          (top ? `: ${top.summary}` : "") +
          (result.decision === "PASS" ? ` ${NOT_A_FINDING}` : ""),
      };
    },
  });

  defineTool(server, {
    name: "catalog_stamp",
    title: "Compact preflight stamp",
    description:
      "The same decision as catalog_preflight (same input, same rules, same cost) as one CATALOG-STAMP/1 line to paste into a log, a pull request or a config " +
      "comment: decision, server, policy, facts and input digests, evaluation time, validity and audit id. Stop on BLOCK, ask a human on REVIEW; " +
      `a PASS is not a security finding. Costs ${PREFLIGHT_COST} credits.`,
    schema: preflightInputSchema,
    // refresh=if_stale probes the server's own remote endpoint
    hints: { openWorld: true },
    options: { metered: true, cost: PREFLIGHT_COST },
    output: "StampResult",
    run: async (input, ctx) => {
      const line = await stamp(await getDb(), input, ctx);
      return { data: { ok: true, stamp: line }, summary: line };
    },
  });

  defineTool(server, {
    name: "catalog_policy_list",
    title: "Policies and ruleset",
    description:
      "Lists the three immutable preflight policies (baseline@1, first-party@1, strict@1), the ruleset they run and their digests, to choose a policy for " +
      "catalog_preflight or explain a decision. Unmetered.",
    schema: null,
    output: "PolicyCatalog",
    run: async () => {
      const catalog = getPolicyCatalog();
      return {
        data: catalog,
        summary: catalog.policies
          .map((p) => `${p.id} (${p.name}): identity ${p.identity_requirement}, liveness ${p.hosted_liveness}, unknown required → ${p.unknown_required}`)
          .join("\n"),
      };
    },
  });
}
