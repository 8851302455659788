import { withCaller } from "@/lib/api/with-caller";
import { getDb } from "@/lib/db/client";
import { serverNameQuerySchema } from "@/lib/schemas/health-card";
import { getServerCard } from "@/lib/services/get-server-card";
import { meteredOtherMethods } from "@/lib/api/other-methods";

export const dynamic = "force-dynamic";

/** GET /v1/server?name=: the HealthCard of one exact canonical name; 404 otherwise. 1 credit per server a day. */
export const GET = withCaller(
  async ({ query, charge }) => getServerCard(await getDb(), query.name, { charge }),
  { metered: true, admitWithCharge: true, query: serverNameQuerySchema },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = meteredOtherMethods("GET");
