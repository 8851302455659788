import { otherMethods } from "@/lib/api/other-methods";

export const dynamic = "force-dynamic";

/**
 * GET /v1/health: a liveness check of the HTTP layer only (no database, no auth), for load balancers and
 * as the baseline the benchmarks compare real routes with.
 */
export function GET(): Response {
  return Response.json({ ok: true }, { headers: { "cache-control": "no-store" } });
}

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
