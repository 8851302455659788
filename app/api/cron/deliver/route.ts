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
  // Vercel ends the function at maxDuration: lanes claimed late in the budget kept sending past it, and the send cut
  // off went unrecorded (sent again after its lease). Elsewhere the route runs to its end, as the timer does.
  const deadlineMs = process.env.VERCEL ? maxDuration * 1000 - 5_000 : undefined;
  return { ok: true, ...(await runDeliveries(await getDb(), { budgetMs: 45_000, deadlineMs })) };
}, OPERATOR_ROUTE);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
