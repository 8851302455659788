import { otherMethods } from "@/lib/api/other-methods";
import { withCaller } from "@/lib/api/with-caller";
import { OPERATOR_ROUTE, requireCronSecret } from "@/lib/api/cron-auth";
import { getDb } from "@/lib/db/client";
import { runMaintenance } from "@/lib/services/run-maintenance";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = withCaller(async ({ req }) => {
  requireCronSecret(req);
  return runMaintenance(await getDb());
}, OPERATOR_ROUTE);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
