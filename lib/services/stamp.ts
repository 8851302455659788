import type { Db } from "@/lib/db/client";
import { formatStamp } from "@/lib/engine";
import type { PreflightInput } from "@/lib/schemas/preflight";
import { preflight, type ServiceContext } from "./preflight";

/** GET /v1/stamp: the same decision as preflight, as one CATALOG-STAMP/1 line (DESIGN §10). */
export async function stamp(db: Db, input: PreflightInput, ctx: ServiceContext): Promise<string> {
  const result = await preflight(db, input, ctx, "stamp");
  return formatStamp(result, result.audit_id);
}
