import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { servers, watches, type ChangeRow } from "@/lib/db/schema";
import { recordChanges, type ChangeKind } from "@/lib/harvest/record-changes";
import { newUnsubscribeToken, newWatchId, newWatchSecret } from "@/lib/watches/watch-ids";
import { WATCH_EVENT_KINDS } from "@/lib/harvest/record-changes";

export async function serverId(db: Db, name: string): Promise<number> {
  const [s] = await db.select({ id: servers.id }).from(servers).where(eq(servers.name, name));
  if (!s) throw new Error(`no fixture server ${name}`);
  return s.id;
}

/** Records changes the way the harvester does: recordChanges in one transaction. */
export async function recordTestChanges(
  db: Db,
  serverName: string,
  list: { kind: ChangeKind; before?: unknown; after?: unknown }[],
): Promise<ChangeRow[]> {
  const id = await serverId(db, serverName);
  return db.transaction((tx) =>
    recordChanges(
      tx,
      list.map((c) => ({ kind: c.kind, serverId: id, serverName, observedAt: new Date(), before: c.before ?? null, after: c.after ?? null })),
    ),
  );
}

/**
 * A watch written straight to the table, skipping createWatch's creation-time
 * URL check (delivery-time SSRF tests need URLs creation would refuse).
 */
export async function insertWatch(
  db: Db,
  opts: { accountId: string; serverName: string; webhookUrl?: string | null; email?: string | null; events?: string[] },
) {
  const sid = await serverId(db, opts.serverName);
  const webhookUrl = opts.webhookUrl ?? null;
  const email = opts.email ?? null;
  const [row] = await db
    .insert(watches)
    .values({
      id: newWatchId(),
      accountId: opts.accountId,
      serverId: sid,
      serverName: opts.serverName,
      webhookUrl,
      email,
      targetKey: `webhook:${webhookUrl ?? ""}\nemail:${email ?? ""}`,
      events: opts.events ?? [...WATCH_EVENT_KINDS],
      secret: newWatchSecret(),
      unsubscribeToken: newUnsubscribeToken(),
    })
    .returning();
  return row;
}
