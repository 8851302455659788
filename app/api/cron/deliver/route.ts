import { otherMethods } from "@/lib/api/other-methods";
import { withCaller } from "@/lib/api/with-caller";
import { OPERATOR_ROUTE, requireCronSecret } from "@/lib/api/cron-auth";
import { getDb } from "@/lib/db/client";
import { runDeliveries } from "@/lib/watches/run-deliveries";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";
export const maxDuration = 60;

/** Sends due webhook and e-mail deliveries (Vercel Cron every minute; `npm run deliver` on the embedded default). */
export const GET = withCaller(async ({ req }) => {
  requireCronSecret(req);
  return { ok: true, ...(await runDeliveries(await getDb(), { budgetMs: 45_000 })) };
}, OPERATOR_ROUTE);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
