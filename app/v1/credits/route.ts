import { withCaller } from "@/lib/api/with-caller";
import { getCredits } from "@/lib/services/get-credits";
import { otherMethods } from "@/lib/api/other-methods";

export const dynamic = "force-dynamic";

/** GET /v1/credits: the key's account wallet. Key required, unmetered. */
export const GET = withCaller(async ({ caller }) => getCredits(caller), { keyRequired: true });

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
