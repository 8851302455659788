import { and, asc, eq, isNull, ne } from "drizzle-orm";
import type { Queryable } from "@/lib/db/client";
import { servers } from "@/lib/db/schema";
import { CREDIT_COSTS } from "@/lib/config";
import { READ_CHARGE } from "@/lib/quota";
import { LOOKALIKE_NAMES_LIMIT } from "@/lib/facts/load-facts";
import { serverNotFound } from "./get-server-card";
import type { MeteredContext } from "./search-servers";
import type { LookalikesResult } from "@/lib/schemas/reports";

/**
 * The catalog_lookalikes function: other listed servers whose name part equals this one's after case,
 * separator and homoglyph folding (the same name part under another namespace is the plainest case),
 * oldest first, at most 100 (count is the full number). Costs one credit, like a lookup.
 */
export async function listLookalikes(db: Queryable, name: string, ctx: MeteredContext): Promise<LookalikesResult> {
  const [self] = await db
    .select({ id: servers.id, serverPart: servers.serverPart, nameFold: servers.nameFold, firstSeenAt: servers.firstSeenAt })
    .from(servers)
    .where(eq(servers.name, name))
    .limit(1);
  if (!self) throw serverNotFound(name);
  await ctx.charge(`lookalikes:${name}`, CREDIT_COSTS.lookalikes, READ_CHARGE);
  const rows = await db
    .select({
      name: servers.name,
      namespace: servers.namespace,
      serverPart: servers.serverPart,
      title: servers.title,
      registryStatus: servers.registryStatus,
      firstSeenAt: servers.firstSeenAt,
    })
    .from(servers)
    .where(and(eq(servers.nameFold, self.nameFold), ne(servers.id, self.id), isNull(servers.delistedAt)))
    .orderBy(asc(servers.firstSeenAt), asc(servers.id));
  const earliest = rows[0] && rows[0].firstSeenAt < self.firstSeenAt ? rows[0].name : name;
  return {
    ok: true,
    server_name: name,
    name_fold: self.nameFold,
    count: rows.length,
    first_listed: earliest,
    lookalikes: rows.slice(0, LOOKALIKE_NAMES_LIMIT).map((r) => ({
      name: r.name,
      namespace: r.namespace,
      title: r.title,
      registry_status: r.registryStatus,
      first_seen_at: r.firstSeenAt.toISOString(),
      kind: (r.serverPart === self.serverPart ? "same_name_part" : r.serverPart.toLowerCase() === self.serverPart.toLowerCase() ? "case" : "folded") as LookalikesResult["lookalikes"][number]["kind"],
    })),
  };
}
