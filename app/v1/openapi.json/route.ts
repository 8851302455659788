import { withCaller } from "@/lib/api/with-caller";
import { siteUrl } from "@/lib/config";
import { buildOpenApiDocument } from "@/lib/openapi/build-openapi-document";

export const dynamic = "force-dynamic";

let cached: { base: string; doc: unknown } | undefined;

/** GET /v1/openapi.json: the OpenAPI 3.1 document, generated from the routes' zod schemas. Unmetered. */
export const GET = withCaller(async ({ headers }) => {
  const base = siteUrl();
  if (cached?.base !== base) cached = { base, doc: buildOpenApiDocument(base) };
  headers.set("cache-control", "public, max-age=3600");
  headers.set("access-control-allow-origin", "*");
  return cached.doc;
});
