import { withCaller } from "@/lib/api/with-caller";
import { parseQuery } from "@/lib/api/request";
import { getDb } from "@/lib/db/client";
import { watchDeleteQuerySchema } from "@/lib/schemas/watch";
import { rotateWatchSecret } from "@/lib/services/rotate-watch-secret";
import { otherMethods } from "@/lib/api/other-methods";

export const dynamic = "force-dynamic";

/** POST /v1/watch/rotate-secret?id=wat_…: a new signing secret, shown in this response only. */
export const POST = withCaller(
  async ({ url, caller }) => {
    const { id } = parseQuery(watchDeleteQuerySchema, url);
    return rotateWatchSecret(await getDb(), caller, id);
  },
  { keyRequired: true },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
