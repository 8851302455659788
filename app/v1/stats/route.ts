import { withCaller } from "@/lib/api/with-caller";
import { cacheableJson } from "@/lib/api/cacheable";
import { getDb } from "@/lib/db/client";
import { REPORT_CACHE_SECONDS } from "@/lib/config";
import { getStats } from "@/lib/services/get-stats";
import { otherMethods } from "@/lib/api/other-methods";

export const dynamic = "force-dynamic";

/** GET /v1/stats: headline counts. Unmetered; Cache-Control and ETag (304 on If-None-Match). */
export const GET = withCaller(async ({ req }) => cacheableJson(req, await getStats(await getDb()), REPORT_CACHE_SECONDS));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
