import { withCaller } from "@/lib/api/with-caller";
import { getDb } from "@/lib/db/client";
import { serverNameQuerySchema } from "@/lib/schemas/health-card";
import { listLookalikes } from "@/lib/services/list-lookalikes";
import { meteredOtherMethods } from "@/lib/api/other-methods";

export const dynamic = "force-dynamic";

/** GET /v1/lookalikes?name=: REST twin of catalog_lookalikes (exact-name collisions); 404 for unknown names. 1 credit. */
export const GET = withCaller(
  async ({ query, charge }) => listLookalikes(await getDb(), query.name, { charge }),
  { metered: true, admitWithCharge: true, query: serverNameQuerySchema },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = meteredOtherMethods("GET");
