import { withCaller } from "@/lib/api/with-caller";
import { getDb } from "@/lib/db/client";
import { listEvaluations } from "@/lib/evaluations/list-evaluations";
import { otherMethods } from "@/lib/api/other-methods";

export const dynamic = "force-dynamic";

export const GET = withCaller(async ({ caller }) => listEvaluations(await getDb(), caller.accountId!), { keyRequired: true });

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
