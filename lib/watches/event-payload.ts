import { siteUrl } from "@/lib/config";

/** The webhook body (DESIGN §8). `type` is the watch event kind, `id` the event id. */
export interface WatchEventPayload {
  id: string;
  type: string;
  created_at: string;
  watch_id: string;
  server_name: string;
  data: { before: unknown; after: unknown; card_url: string };
}

/** Where a person or a program reads the server's evidence card. */
export function cardUrl(serverName: string): string {
  return `${siteUrl()}/v1/server?name=${encodeURIComponent(serverName)}`;
}

export function buildEventPayload(input: {
  eventId: string;
  kind: string;
  createdAt: Date;
  watchId: string;
  serverName: string;
  before: unknown;
  after: unknown;
}): WatchEventPayload {
  return {
    id: input.eventId,
    type: input.kind,
    created_at: input.createdAt.toISOString(),
    watch_id: input.watchId,
    server_name: input.serverName,
    data: { before: input.before ?? null, after: input.after ?? null, card_url: cardUrl(input.serverName) },
  };
}
