import { withCaller } from "@/lib/api/with-caller";
import { getDb } from "@/lib/db/client";
import { searchQuerySchema } from "@/lib/schemas/health-card";
import { searchServers } from "@/lib/services/search-servers";
import { meteredOtherMethods } from "@/lib/api/other-methods";

export const dynamic = "force-dynamic";

/** GET /v1/search?q=&limit=: ranked HealthCards. Optional key; 1 credit (or anonymous lookup) per distinct query a day. */
export const GET = withCaller(
  async ({ query, charge }) => searchServers(await getDb(), query, { charge }),
  { metered: true, admitWithCharge: true, query: searchQuerySchema },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = meteredOtherMethods("GET");
