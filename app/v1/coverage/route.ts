import { withCaller } from "@/lib/api/with-caller";
import { cacheableJson } from "@/lib/api/cacheable";
import { getDb } from "@/lib/db/client";
import { REPORT_CACHE_SECONDS } from "@/lib/config";
import { getCoverage } from "@/lib/services/get-coverage";
import { otherMethods } from "@/lib/api/other-methods";

export const dynamic = "force-dynamic";

/** GET /v1/coverage: census, source coverage and freshness, identity evidence, harvest and discovery state. Unmetered, cacheable. */
export const GET = withCaller(async ({ req }) => cacheableJson(req, await getCoverage(await getDb()), REPORT_CACHE_SECONDS));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
