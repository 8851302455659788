import type { Queryable } from "@/lib/db/client";
import { loadServerRecords, type ServerRecord } from "@/lib/facts/load-facts";
import type { HealthCard } from "@/lib/schemas/health-card";
import { buildHealthCard } from "./build-health-card";

/** The cards of the given names that are in the catalog, in the order given (unknown names are skipped). */
export async function loadHealthCards(db: Queryable, names: readonly string[], now: Date): Promise<HealthCard[]> {
  const records = await loadServerRecords(db, names);
  return names.flatMap((n) => {
    const r: ServerRecord | undefined = records.get(n);
    return r ? [buildHealthCard(r.facts, r.listing, now)] : [];
  });
}
