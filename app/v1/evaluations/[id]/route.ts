import { withCaller } from "@/lib/api/with-caller";
import { getDb } from "@/lib/db/client";
import { getEvaluation } from "@/lib/evaluations/get-evaluation";
import { otherMethods } from "@/lib/api/other-methods";

export const dynamic = "force-dynamic";

export const GET = withCaller<{ id: string }>(
  async ({ caller, params }) => getEvaluation(await getDb(), caller.accountId!, params.id),
  { keyRequired: true },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
