import { withCaller } from "@/lib/api/with-caller";
import { getDb } from "@/lib/db/client";
import { listEvaluations } from "@/lib/evaluations/list-evaluations";

export const dynamic = "force-dynamic";

export const GET = withCaller(async ({ caller }) => listEvaluations(await getDb(), caller.accountId!), { keyRequired: true });
