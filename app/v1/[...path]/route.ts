import { withCaller } from "@/lib/api/with-caller";
import { ApiError } from "@/lib/api/errors";
import { clipForMessage } from "@/lib/api/request";

export const dynamic = "force-dynamic";

// Any /v1 path no other route claims: the contract's Error body, never an HTML page.
const unknownRoute = withCaller(async ({ req, url }) => {
  throw new ApiError("not_found", `no such endpoint: ${req.method} ${clipForMessage(url.pathname, 200)}`);
}, { query: "unchecked" });

export { unknownRoute as GET, unknownRoute as POST, unknownRoute as PUT, unknownRoute as PATCH, unknownRoute as DELETE, unknownRoute as OPTIONS };
