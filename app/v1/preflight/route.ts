import { withCaller } from "@/lib/api/with-caller";
import { readJsonBody } from "@/lib/api/request";
import { getDb } from "@/lib/db/client";
import { preflightInputSchema } from "@/lib/schemas/preflight";
import { preflight, PREFLIGHT_COST } from "@/lib/services/preflight";
import { otherMethods } from "@/lib/api/other-methods";

export const dynamic = "force-dynamic";

export const POST = withCaller(
  async ({ req, caller, charge, admit }) => {
    const input = await readJsonBody(req, preflightInputSchema);
    return preflight(await getDb(), input, { caller, charge, admit });
  },
  { metered: true, cost: PREFLIGHT_COST, admitWithCharge: true },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
