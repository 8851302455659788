import { sql } from "drizzle-orm";
import { servers } from "@/lib/db/schema";

/**
 * The id of the version whose listing describes a server (SQL, correlated to `servers`): its latest version, or,
 * for a server the catalog has seen only through non-latest rows (an incremental crawl, lib/catalog/ingest-entries.ts),
 * the version it was described by until a latest arrives (the one whose published time the server row took; the
 * first written of those). Its packages and remotes are what the listing names: reading none for such a server
 * said "lists no package, no remote" and let a preflight PASS on packages nobody had looked at.
 */
export const describedVersionId = sql<number | null>`coalesce(${servers.latestVersionId}, (
  select v.id from server_versions v where v.server_id = ${servers.id}
  order by (v.published_at is not distinct from ${servers.publishedAt}) desc, v.published_at desc nulls last, v.id
  limit 1))`;
