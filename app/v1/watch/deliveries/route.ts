import { withCaller } from "@/lib/api/with-caller";
import { parseQuery } from "@/lib/api/request";
import { getDb } from "@/lib/db/client";
import { watchDeliveriesQuerySchema } from "@/lib/schemas/watch";
import { listWatchDeliveries } from "@/lib/services/list-watch-deliveries";
import { otherMethods } from "@/lib/api/other-methods";

export const dynamic = "force-dynamic";

/** GET /v1/watch/deliveries?id=wat_…&limit=: a watch's newest deliveries and their attempts. */
export const GET = withCaller(
  async ({ url, caller }) => {
    const { id, limit } = parseQuery(watchDeliveriesQuerySchema, url);
    return listWatchDeliveries(await getDb(), caller, id, limit);
  },
  { keyRequired: true },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
