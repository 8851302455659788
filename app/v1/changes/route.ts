import { withCaller } from "@/lib/api/with-caller";
import { getDb } from "@/lib/db/client";
import { changeFeedQuerySchema } from "@/lib/schemas/changes";
import { listChanges } from "@/lib/services/list-changes";
import { otherMethods } from "@/lib/api/other-methods";

export const dynamic = "force-dynamic";

/** GET /v1/changes?since=<cursor>|before=<cursor>&limit=<1..500>&kind=&server_name=: the change feed; unmetered, no key needed. */
export const GET = withCaller(async ({ query }) => listChanges(await getDb(), query), { query: changeFeedQuerySchema });

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
