import { otherMethods } from "@/lib/api/other-methods";
import { adminPost } from "@/lib/api/admin-route";
import { grantWatchLimit, grantWatchLimitInputSchema } from "@/lib/services/grant-watch-limit";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** POST {email, watch_limit}: an account's own watch limit for `npm run account:watch-limit` (operator secret required). */
export const POST = adminPost(grantWatchLimitInputSchema, grantWatchLimit);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
