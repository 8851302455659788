import { withCaller } from "@/lib/api/with-caller";
import { cacheableJson } from "@/lib/api/cacheable";
import { getDb } from "@/lib/db/client";
import { REPORT_CACHE_SECONDS } from "@/lib/config";
import { recentQuerySchema } from "@/lib/schemas/reports";
import { listRecentServers } from "@/lib/services/list-recent-servers";
import { otherMethods } from "@/lib/api/other-methods";

export const dynamic = "force-dynamic";

/** GET /v1/recent?limit=&cursor=: newest servers by first_seen_at, as HealthCards, keyset-paginated. Unmetered, cacheable. */
export const GET = withCaller(async ({ req, query }) => cacheableJson(req, await listRecentServers(await getDb(), query), REPORT_CACHE_SECONDS), {
  query: recentQuerySchema,
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
