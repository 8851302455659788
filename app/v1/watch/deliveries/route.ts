import { withCaller } from "@/lib/api/with-caller";
import { getDb } from "@/lib/db/client";
import { watchDeliveriesQuerySchema } from "@/lib/schemas/watch";
import { listWatchDeliveries } from "@/lib/services/list-watch-deliveries";
import { otherMethods } from "@/lib/api/other-methods";

export const dynamic = "force-dynamic";

/** GET /v1/watch/deliveries?id=wat_…&limit=: a watch's newest deliveries and their attempts. */
export const GET = withCaller(
  async ({ query, caller }) => listWatchDeliveries(await getDb(), caller, query.id, query.limit),
  { keyRequired: true, query: watchDeliveriesQuerySchema },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
