import { withCaller } from "@/lib/api/with-caller";
import { siteUrl } from "@/lib/config";
import { openApiDocument } from "@/lib/openapi/build-openapi-document";
import { otherMethods } from "@/lib/api/other-methods";

export const dynamic = "force-dynamic";

/** GET /v1/openapi.json: the OpenAPI 3.1 document, generated from the routes' zod schemas. Unmetered. */
export const GET = withCaller(async ({ headers }) => {
  headers.set("cache-control", "public, max-age=3600");
  headers.set("access-control-allow-origin", "*");
  return openApiDocument(siteUrl());
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
