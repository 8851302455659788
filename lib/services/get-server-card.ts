import type { Queryable } from "@/lib/db/client";
import { ApiError } from "@/lib/api/errors";
import { CREDIT_COSTS } from "@/lib/config";
import { READ_CHARGE } from "@/lib/quota";
import { loadServerRecords } from "@/lib/facts/load-facts";
import { buildHealthCard } from "@/lib/cards/build-health-card";
import type { ServerCardResponse } from "@/lib/schemas/health-card";
import type { MeteredContext } from "./search-servers";

export function serverNotFound(name: string): ApiError {
  return new ApiError("not_found", `no server named ${JSON.stringify(name)} in the catalog (names are exact and case-sensitive; find it with GET /v1/search?q= or the catalog_search tool)`);
}

/** GET /v1/server and the catalog_lookup tool: the HealthCard of one exact canonical name; 404 otherwise. */
export async function getServerCard(db: Queryable, name: string, ctx: MeteredContext): Promise<ServerCardResponse> {
  const record = (await loadServerRecords(db, [name])).get(name);
  if (!record) throw serverNotFound(name);
  await ctx.charge(`lookup:${name}`, CREDIT_COSTS.lookup, READ_CHARGE);
  return { ok: true, ...buildHealthCard(record.facts, record.listing, ctx.now ?? new Date()) };
}
