import { withCaller } from "@/lib/api/with-caller";
import { readConfigBody } from "@/lib/api/read-config-body";
import { prefersText } from "@/lib/api/prefers-text";
import { CREDIT_COSTS } from "@/lib/config";
import { formatAuditText } from "@/lib/config-audit/format-text";
import { getDb } from "@/lib/db/client";
import { auditQuerySchema } from "@/lib/schemas/config-audit";
import { AUDIT_ALLOWANCE, auditConfig } from "@/lib/services/audit-config";
import { otherMethods } from "@/lib/api/other-methods";

export const dynamic = "force-dynamic";

// POST /v1/audit?strict=1&policy_id=…&filename=… with the config file as the body (docs/config-audit.md).
export const POST = withCaller(
  async ({ req, query, caller, charge, headers }) => {
    const text = await readConfigBody(req);
    const result = await auditConfig(await getDb(), { text, ...query }, { caller, charge });
    headers.set("x-catalog-exit-code", String(result.exit_code));
    if (prefersText(req)) {
      return new Response(formatAuditText(result.entries), { status: 200, headers: { "content-type": "text/plain; charset=utf-8" } });
    }
    return result;
  },
  { metered: true, cost: CREDIT_COSTS.config_audit, allowance: AUDIT_ALLOWANCE, query: auditQuerySchema },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
