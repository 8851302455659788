import { otherMethods } from "@/lib/api/other-methods";
import { adminPost } from "@/lib/api/admin-route";
import { issueApiKey, issueApiKeyInputSchema } from "@/lib/services/issue-api-key";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** POST {email, tier}: an account key for `npm run key:create` (operator secret required). */
export const POST = adminPost(issueApiKeyInputSchema, issueApiKey);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
