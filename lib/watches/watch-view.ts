import type { WatchRow } from "@/lib/db/schema";
import type { WatchEventKind, WatchView } from "@/lib/schemas/watch";

/** A watch as the API shows it: never its secret nor its unsubscribe token. */
export function toWatchView(w: WatchRow): WatchView {
  return {
    id: w.id,
    server_name: w.serverName,
    webhook_url: w.webhookUrl,
    email: w.email,
    email_confirmed: w.email === null ? null : w.emailConfirmedAt !== null,
    events: w.events as WatchEventKind[],
    label: w.label,
    status: w.status as WatchView["status"],
    created_at: w.createdAt.toISOString(),
    updated_at: w.updatedAt.toISOString(),
    unsubscribed_at: w.unsubscribedAt ? w.unsubscribedAt.toISOString() : null,
  };
}
