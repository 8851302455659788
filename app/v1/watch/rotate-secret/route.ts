import { withCaller } from "@/lib/api/with-caller";
import { getDb } from "@/lib/db/client";
import { watchDeleteQuerySchema } from "@/lib/schemas/watch";
import { rotateWatchSecret } from "@/lib/services/rotate-watch-secret";
import { otherMethods } from "@/lib/api/other-methods";

export const dynamic = "force-dynamic";

/** POST /v1/watch/rotate-secret?id=wat_…: a new signing secret, shown in this response only. */
export const POST = withCaller(
  async ({ query, caller }) => rotateWatchSecret(await getDb(), caller, query.id),
  { keyRequired: true, query: watchDeleteQuerySchema },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
