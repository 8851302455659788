import { withCaller } from "@/lib/api/with-caller";
import { requireCronSecret } from "@/lib/api/cron-auth";
import { readJsonBody } from "@/lib/api/request";
import { getDb } from "@/lib/db/client";
import { issueApiKey, issueApiKeyInputSchema } from "@/lib/services/issue-api-key";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** POST {email, tier}: an account key for `npm run key:create` (operator secret required). */
export const POST = withCaller(async ({ req, headers }) => {
  requireCronSecret(req);
  headers.set("cache-control", "no-store");
  return issueApiKey(await getDb(), await readJsonBody(req, issueApiKeyInputSchema));
});
