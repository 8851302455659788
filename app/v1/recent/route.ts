import { withCaller } from "@/lib/api/with-caller";
import { cacheableJson } from "@/lib/api/cacheable";
import { parseQuery } from "@/lib/api/request";
import { getDb } from "@/lib/db/client";
import { REPORT_CACHE_SECONDS } from "@/lib/config";
import { recentQuerySchema } from "@/lib/schemas/reports";
import { listRecentServers } from "@/lib/services/list-recent-servers";
import { otherMethods } from "@/lib/api/other-methods";

export const dynamic = "force-dynamic";

/** GET /v1/recent?limit=&cursor=: newest servers by first_seen_at, as HealthCards, keyset-paginated. Unmetered, cacheable. */
export const GET = withCaller(async ({ req, url }) => {
  const input = parseQuery(recentQuerySchema, url);
  return cacheableJson(req, await listRecentServers(await getDb(), input), REPORT_CACHE_SECONDS);
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
