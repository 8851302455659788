import { and, eq, inArray } from "drizzle-orm";
import type { Tx } from "@/lib/db/client";
import { watchDeliveries, watches, type ChangeRow } from "@/lib/db/schema";
import { onChangesRecorded, WATCH_EVENT_KINDS } from "@/lib/harvest/record-changes";
import { buildEventPayload } from "./event-payload";
import { newEventId } from "./watch-ids";

// record-changes.ts imports this module (to call ensureWatchOutboxHook) and this
// module imports it back: imported values are used only inside functions, never
// at the top level, so the cycle is harmless whichever side loads first.

type DeliveryInsert = typeof watchDeliveries.$inferInsert;

/**
 * The change hook: one outbox row per change, matching active watch and
 * channel (webhook, e-mail), in the transaction that writes the change rows.
 * Rows are inserted in change order, and recordChanges serialises its writers,
 * so a watch's deliveries are numbered in the order its changes committed.
 */
export async function enqueueWatchEvents(tx: Tx, rows: ChangeRow[]): Promise<void> {
  const watchable = new Set<string>(WATCH_EVENT_KINDS);
  const relevant = rows.filter((r) => watchable.has(r.kind)).sort((a, b) => a.id - b.id);
  if (!relevant.length) return;
  const serverIds = [...new Set(relevant.map((r) => r.serverId))];
  const byServer = new Map<number, { id: string; events: string[]; webhookUrl: string | null; email: string | null; emailConfirmedAt: Date | null }[]>();
  for (let i = 0; i < serverIds.length; i += 1000) {
    const found = await tx
      .select({
        id: watches.id,
        serverId: watches.serverId,
        events: watches.events,
        webhookUrl: watches.webhookUrl,
        email: watches.email,
        emailConfirmedAt: watches.emailConfirmedAt,
      })
      .from(watches)
      .where(and(inArray(watches.serverId, serverIds.slice(i, i + 1000)), eq(watches.status, "active")))
      .orderBy(watches.createdAt, watches.id)
      // Locked until this transaction commits: a narrowing of `events` or a DELETE that commits in between
      // cancels the pending rows it can see, and these are not visible to it yet, so an event of a kind the
      // owner had just dropped went out. With the lock it waits for this commit (and then cancels these rows),
      // or it came first and this reads the watch as it left it.
      .for("share");
    for (const w of found) {
      const list = byServer.get(w.serverId) ?? [];
      list.push(w);
      byServer.set(w.serverId, list);
    }
  }
  if (!byServer.size) return;

  const values: DeliveryInsert[] = [];
  for (const change of relevant) {
    for (const w of byServer.get(change.serverId) ?? []) {
      if (!w.events.includes(change.kind)) continue;
      const eventId = newEventId();
      const body = JSON.stringify(
        buildEventPayload({
          eventId,
          kind: change.kind,
          createdAt: change.createdAt,
          watchId: w.id,
          serverName: change.serverName,
          before: change.before,
          after: change.after,
        }),
      );
      const row = { eventId, watchId: w.id, changeId: change.id, kind: change.kind, body, nextAttemptAt: change.createdAt };
      if (w.webhookUrl) values.push({ ...row, channel: "webhook" });
      // an address that has not confirmed gets nothing, not even later: its notices start with its confirmation
      if (w.email && w.emailConfirmedAt) values.push({ ...row, channel: "email" });
    }
  }
  for (let i = 0; i < values.length; i += 500) await tx.insert(watchDeliveries).values(values.slice(i, i + 500));
}

const REGISTERED_KEY = Symbol.for("mcp-preflight.watch-outbox-hook");

/**
 * Registers enqueueWatchEvents with recordChanges once per process (module
 * reloads in `next dev` and test files share the process-wide hook list, so a
 * flag on globalThis keeps it from being added twice). recordChanges calls this
 * before it runs its hooks, so every process that writes changes has it.
 */
export function ensureWatchOutboxHook(): void {
  const g = globalThis as unknown as Record<symbol, boolean>;
  if (g[REGISTERED_KEY]) return;
  g[REGISTERED_KEY] = true;
  onChangesRecorded(enqueueWatchEvents);
}
