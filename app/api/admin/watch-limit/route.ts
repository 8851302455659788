import { withCaller } from "@/lib/api/with-caller";
import { requireCronSecret } from "@/lib/api/cron-auth";
import { readJsonBody } from "@/lib/api/request";
import { getDb } from "@/lib/db/client";
import { grantWatchLimit, grantWatchLimitInputSchema } from "@/lib/services/grant-watch-limit";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** POST {email, watch_limit}: an account's own watch limit for `npm run account:watch-limit` (operator secret required). */
export const POST = withCaller(async ({ req, headers }) => {
  requireCronSecret(req);
  headers.set("cache-control", "no-store");
  return grantWatchLimit(await getDb(), await readJsonBody(req, grantWatchLimitInputSchema));
});
