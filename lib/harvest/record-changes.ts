import { sql } from "drizzle-orm";
import type { Tx } from "@/lib/db/client";
import { changes, type ChangeRow } from "@/lib/db/schema";
import { ensureWatchOutboxHook } from "@/lib/watches/outbox-hook";

/** The change kinds of the contract's change feed. */
export const CHANGE_KINDS = [
  "server_new",
  "remote_down",
  "remote_up",
  "tools_changed",
  "health_change",
  "verified_change",
  "security",
  "endpoint_moved",
  "registry_status",
  "spec_era_change",
] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** The kinds a watch can subscribe to (contract: watch event kinds). */
export const WATCH_EVENT_KINDS = ["remote_down", "remote_up", "health_change", "verified_change", "security"] as const;

export interface ChangeInput {
  kind: ChangeKind;
  serverId: number;
  serverName: string;
  observedAt: Date;
  before: unknown;
  after: unknown;
}

/**
 * Runs inside the transaction that records changes, after their rows exist.
 * Watches add one outbox row per matching watch here, so a notification is
 * durable exactly when the observation that caused it is.
 */
export type ChangeHook = (tx: Tx, rows: ChangeRow[]) => Promise<void>;

const HOOKS_KEY = Symbol.for("mcp-preflight.change-hooks");
function hooks(): ChangeHook[] {
  const g = globalThis as unknown as Record<symbol, ChangeHook[]>;
  return (g[HOOKS_KEY] ??= []);
}

/** Registers a hook for every later recordChanges call in this process; returns its removal. */
export function onChangesRecorded(hook: ChangeHook): () => void {
  hooks().push(hook);
  return () => {
    const list = hooks();
    const i = list.indexOf(hook);
    if (i >= 0) list.splice(i, 1);
  };
}

// Arbitrary constant: serialises the writers of change rows until they commit.
const CHANGES_LOCK_KEY = 7_301_990_449;

/**
 * Serialises the writers of observations that detect changes, until they commit. Taken at the start of a
 * writing transaction, before its "before" read: two writers that overlapped (two runs, a run and a refresh or
 * an ingest) would otherwise each read the other's commit as part of their own transition and record it twice.
 * Taking it again in the same transaction (recordChanges does) is harmless.
 */
export async function lockChanges(tx: Tx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${CHANGES_LOCK_KEY})`);
}

/**
 * Writes change records in the caller's transaction (the one that wrote the
 * observation behind them) and runs the registered hooks there.
 *
 * Ids come from a sequence; to make id order equal commit order (so a feed
 * reader paging by `id > cursor` never skips a row that commits late) this
 * takes a transaction-scoped lock first: call it last in the transaction.
 */
export async function recordChanges(tx: Tx, list: ChangeInput[]): Promise<ChangeRow[]> {
  if (!list.length) return [];
  ensureWatchOutboxHook(); // watches: one outbox row per matching watch, in this transaction
  await lockChanges(tx);
  const rows: ChangeRow[] = [];
  for (let i = 0; i < list.length; i += 500) {
    const part = list.slice(i, i + 500);
    rows.push(
      ...(await tx
        .insert(changes)
        .values(part.map((c) => ({ ...c, before: c.before ?? null, after: c.after ?? null })))
        .returning()),
    );
  }
  for (const hook of hooks()) await hook(tx, rows);
  return rows;
}
