import { withCaller } from "@/lib/api/with-caller";
import { getPolicyCatalog } from "@/lib/services/get-policy-catalog";
import { otherMethods } from "@/lib/api/other-methods";

export const dynamic = "force-dynamic";

// Policies are immutable: the catalog can be cached for as long as this build serves.
export const GET = withCaller(async ({ headers }) => {
  headers.set("cache-control", "public, max-age=3600");
  return getPolicyCatalog();
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
