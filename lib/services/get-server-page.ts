import { eq } from "drizzle-orm";
import type { Db, Queryable } from "@/lib/db/client";
import { servers } from "@/lib/db/schema";
import { evaluate, POLICIES, toPreflightResult, type PreflightResultBody } from "@/lib/engine";
import { loadServerRecords, mayBeListedName } from "@/lib/facts/load-facts";
import { buildHealthCard } from "@/lib/cards/build-health-card";
import type { HealthCard } from "@/lib/schemas/health-card";
import type { ChangeFeedResponse } from "@/lib/schemas/changes";
import { listChanges } from "./list-changes";

/** Changes of one server the page shows; older ones are a link to /changes?server_name=. */
export const SERVER_PAGE_CHANGES = 10;

export interface ServerPageView {
  /** What GET /v1/server answers for this name at `now` (without `ok`). */
  card: HealthCard;
  /** What POST /v1/preflight answers anonymously (audit_id null) under each of the three policies at `now`. */
  decisions: PreflightResultBody[];
  /** GET /v1/changes?server_name=<name>&limit=10: the newest changes, oldest first, and the cursor to older ones. */
  changes: ChangeFeedResponse;
  now: string;
}

/**
 * The server page (`/servers/<name>`): the card and the three decisions from one read of the facts, by the
 * same functions as GET /v1/server (buildHealthCard) and POST /v1/preflight (evaluate → toPreflightResult),
 * so the page can never show a value the API would not return for the same facts at the same time. A page
 * view is not an API call: it spends nothing and records no evaluation. null when the name is not in the
 * catalog.
 */
export async function getServerPage(db: Db, name: string, opts: { now?: Date } = {}): Promise<ServerPageView | null> {
  const now = opts.now ?? new Date();
  if (!mayBeListedName(name)) return null;
  const [records, changes] = await Promise.all([
    loadServerRecords(db, [name]),
    listChanges(db, { server_name: name, limit: SERVER_PAGE_CHANGES }),
  ]);
  const record = records.get(name);
  if (!record) return null;
  return {
    card: buildHealthCard(record.facts, record.listing, now),
    decisions: POLICIES.map((policy) => toPreflightResult(evaluate({ facts: record.facts, policy, now }), null)),
    changes,
    now: now.toISOString(),
  };
}

/** Whether the catalog has this exact name (listed or delisted): the page's 404 check, before anything streams. */
export async function serverExists(db: Queryable, name: string): Promise<boolean> {
  if (!mayBeListedName(name)) return false;
  const [row] = await db.select({ id: servers.id }).from(servers).where(eq(servers.name, name)).limit(1);
  return !!row;
}
