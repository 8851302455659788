import { withCaller } from "@/lib/api/with-caller";
import { readJsonBody } from "@/lib/api/request";
import { getDb } from "@/lib/db/client";
import { watchDeleteQuerySchema, watchInputSchema } from "@/lib/schemas/watch";
import { createWatch, WATCH_SUBSCRIBE_COST } from "@/lib/services/create-watch";
import { listWatches } from "@/lib/services/list-watches";
import { deleteWatch } from "@/lib/services/delete-watch";
import { otherMethods } from "@/lib/api/other-methods";

export const dynamic = "force-dynamic";

/** POST /v1/watch: create or update a watch; 10 credits on creation. */
export const POST = withCaller(
  async ({ req, caller, charge }) => {
    const input = await readJsonBody(req, watchInputSchema);
    return createWatch(await getDb(), input, { caller, charge });
  },
  { keyRequired: true, metered: true, cost: WATCH_SUBSCRIBE_COST },
);

/** GET /v1/watch: the key's account's active watches. */
export const GET = withCaller(async ({ caller }) => listWatches(await getDb(), caller), { keyRequired: true });

/** DELETE /v1/watch?id=wat_…: unsubscribe. */
export const DELETE = withCaller(
  async ({ query, caller }) => deleteWatch(await getDb(), caller, query.id),
  { keyRequired: true, query: watchDeleteQuerySchema },
);

export const { PUT, PATCH, OPTIONS } = otherMethods("GET", "POST", "DELETE");
