import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { getDb } from "@/lib/db/client";
import { watchDeleteQuerySchema, watchInputSchema } from "@/lib/schemas/watch";
import { createWatch, WATCH_SUBSCRIBE_COST } from "@/lib/services/create-watch";
import { listWatches } from "@/lib/services/list-watches";
import { deleteWatch } from "@/lib/services/delete-watch";
import { defineTool } from "../run-tool";

export function registerWatchTools(server: McpServer) {
  defineTool(server, {
    name: "catalog_watch_subscribe",
    title: "Watch one server",
    description:
      "Subscribe to observed changes of one exact server (remote_down, remote_up, health_change, verified_change, security; all five by default) by HTTPS " +
      "webhook (signed with X-Catalog-Signature: sha256=HMAC of the body with the watch secret) or e-mail. The secret is returned once, on creation. " +
      "The watch belongs to the same account as the API key: catalog_watch_list and catalog_watch_unsubscribe see it with any key of that account, and the " +
      "same account, server and target update the one watch. " +
      `Needs an API key; costs ${WATCH_SUBSCRIBE_COST} credits on creation (once per server and UTC day); free keys hold 5 watches, pro 50.`,
    schema: watchInputSchema,
    // the same key, server and target update the one watch; the watch mails the address it is given (a
    // confirmation link now) and posts to the webhook URL it is given, both anywhere on the internet
    hints: { readOnly: false, destructive: false, idempotent: true, openWorld: true },
    options: { keyRequired: true, metered: true, cost: WATCH_SUBSCRIBE_COST },
    output: "WatchCreateResponse",
    run: async (input, ctx) => {
      const r = await createWatch(await getDb(), input, ctx);
      return { data: r, summary: `${r.created ? "created" : "updated"} watch ${r.watch.id} on ${r.watch.server_name}${r.secret ? "; store the secret now, it is not shown again" : ""}` };
    },
  });

  defineTool(server, {
    name: "catalog_watch_list",
    title: "List watches",
    description: "The API key's account's active watches (no secrets). Needs an API key. Unmetered.",
    schema: null,
    options: { keyRequired: true },
    output: "WatchListResponse",
    run: async (_input, { caller }) => {
      const r = await listWatches(await getDb(), caller);
      return { data: r, summary: r.count ? r.watches.map((w) => `${w.id} ${w.server_name}`).join("\n") : "no active watches" };
    },
  });

  defineTool(server, {
    name: "catalog_watch_unsubscribe",
    title: "Stop a watch",
    description: "Unsubscribes one of the account's watches by id (wat_…); no further notifications are sent. Needs an API key. Unmetered.",
    schema: watchDeleteQuerySchema,
    hints: { readOnly: false, destructive: true, idempotent: true },
    options: { keyRequired: true },
    output: "WatchDeleteResponse",
    run: async ({ id }, { caller }) => {
      const r = await deleteWatch(await getDb(), caller, id);
      return { data: r, summary: `watch ${r.watch.id} unsubscribed` };
    },
  });
}
