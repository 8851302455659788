import { otherMethods } from "@/lib/api/other-methods";
import { NO_INPUT, parseQuery } from "@/lib/api/request";
import { errorResponse } from "@/lib/api/respond";

export const dynamic = "force-dynamic";

const NO_STORE = { "cache-control": "no-store" };

/**
 * GET /v1/health: a liveness check of the HTTP layer only (no database, no auth), for load balancers and
 * as the baseline the benchmarks compare real routes with; so not wrapped in withCaller, but under its rule
 * for the query: it takes no parameters, and one is a 400 as on every /v1 route.
 */
export function GET(req: Request): Response {
  if (req.url.includes("?")) {
    try {
      parseQuery(NO_INPUT, new URL(req.url));
    } catch (err) {
      return errorResponse(err, crypto.randomUUID(), NO_STORE);
    }
  }
  return Response.json({ ok: true }, { headers: NO_STORE });
}

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
