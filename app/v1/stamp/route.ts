import { withCaller } from "@/lib/api/with-caller";
import { getDb } from "@/lib/db/client";
import { stampInputSchema } from "@/lib/schemas/preflight";
import { stamp } from "@/lib/services/stamp";
import { PREFLIGHT_COST } from "@/lib/services/preflight";
import { meteredOtherMethods } from "@/lib/api/other-methods";

export const dynamic = "force-dynamic";

export const GET = withCaller(
  async ({ query, caller, charge, admit }) => {
    const line = await stamp(await getDb(), query, { caller, charge, admit });
    return new Response(`${line}\n`, { status: 200, headers: { "content-type": "text/plain; charset=utf-8" } });
  },
  { metered: true, cost: PREFLIGHT_COST, admitWithCharge: true, query: stampInputSchema },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = meteredOtherMethods("GET");
