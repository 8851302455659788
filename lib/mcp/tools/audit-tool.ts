import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { getDb } from "@/lib/db/client";
import { AUDIT_KEYLESS_CONFIGS_PER_DAY, AUDIT_MAX_BODY_BYTES, AUDIT_MAX_ENTRIES_KEYED, AUDIT_MAX_ENTRIES_KEYLESS, CREDIT_COSTS } from "@/lib/config";
import { configTooLarge } from "@/lib/api/read-config-body";
import { auditQuerySchema } from "@/lib/schemas/config-audit";
import { requiredText } from "@/lib/schemas/params";
import { formatAuditText } from "@/lib/config-audit/format-text";
import { AUDIT_ALLOWANCE, auditConfig } from "@/lib/services/audit-config";
import { defineTool } from "../run-tool";

/** REST's body limit (a larger file is refused with its 413 message), in the unit people say it in. */
const AUDIT_MAX_KIB = AUDIT_MAX_BODY_BYTES / 1024;

/**
 * The REST audit's query parameters plus the file itself, which REST takes as the body. An empty file is not refused
 * here: the audit refuses it with REST's own message ("the config file is empty"), as it does a blank one.
 */
export const auditToolInputSchema = auditQuerySchema.extend({
  config: requiredText("config").describe(`the whole MCP config file as text (JSON, JSON with comments, TOML or YAML), at most ${AUDIT_MAX_KIB} KiB in UTF-8`),
});

export function registerAuditTool(server: McpServer) {
  defineTool(server, {
    name: "catalog_audit_config",
    title: "Audit a whole MCP config file",
    description:
      "Gives every server entry of an MCP config file (.mcp.json, mcp.json, Claude Desktop, Cursor, VS Code, Windsurf, Zed, Codex TOML, …) a verdict: PASS, " +
      "REVIEW, BLOCK or UNKNOWN (UNKNOWN means the catalog has no row for the entry, not that it is fine), one line per entry, with the exit code CI would " +
      "use (0 all PASS, 1 any BLOCK, with strict 2 for any REVIEW or UNKNOWN). REST twin: POST /v1/audit. " +
      `Limits: the file at most ${AUDIT_MAX_KIB} KiB, one audit at most ${AUDIT_MAX_ENTRIES_KEYED} server entries with an API key; without a key ` +
      `${AUDIT_KEYLESS_CONFIGS_PER_DAY === 1 ? "one config" : `${AUDIT_KEYLESS_CONFIGS_PER_DAY} configs`} of up to ${AUDIT_MAX_ENTRIES_KEYLESS} entries per IP per UTC day. ` +
      `Costs ${CREDIT_COSTS.config_audit} credit per distinct config per UTC day.`,
    schema: auditToolInputSchema,
    options: { metered: true, cost: CREDIT_COSTS.config_audit, allowance: AUDIT_ALLOWANCE },
    output: "AuditResult",
    run: async ({ config, ...query }, ctx) => {
      // REST's 413, message included (lib/api/read-config-body.ts)
      if (Buffer.byteLength(config) > AUDIT_MAX_BODY_BYTES) throw configTooLarge();
      // as REST reads the body (lib/api/read-config-body.ts: UTF-8 decoding drops a leading byte-order mark), so the same
      // file is the same config, charged once a day whichever way it came
      const text = config.replace(/^\uFEFF/, "");
      const r = await auditConfig(await getDb(), { text, ...query }, { caller: ctx.caller, charge: (s, c, o) => ctx.charge(s, c, o) });
      return { data: r, summary: `exit code ${r.exit_code}\n${formatAuditText(r.entries)}` };
    },
  });
}
