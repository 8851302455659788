import { count, isNull } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { servers } from "@/lib/db/schema";
import { latestSuccessfulSync, latestSync } from "@/lib/catalog/ingest-from-registry";

export interface CatalogStatus {
  servers: number;
  lastSync: { status: string; source: string; origin: string; finishedAt: string | null; error: string | null } | null;
  lastSuccessAt: string | null;
  /** How the last successful sync read the listing: the registry's API, or a dump file imported. */
  lastSuccessSource: "api" | "file" | null;
}

/** What the home page says about the catalog: its size and how the last ingest went. */
export async function getCatalogStatus(db: Db): Promise<CatalogStatus> {
  const [{ n }] = await db.select({ n: count() }).from(servers).where(isNull(servers.delistedAt));
  const last = await latestSync(db);
  const ok = await latestSuccessfulSync(db);
  return {
    servers: n,
    lastSync: last
      ? { status: last.status, source: last.source, origin: last.origin, finishedAt: last.finishedAt?.toISOString() ?? null, error: last.error }
      : null,
    lastSuccessAt: ok?.finishedAt?.toISOString() ?? null,
    lastSuccessSource: ok ? (ok.source === "file" ? "file" : "api") : null,
  };
}
