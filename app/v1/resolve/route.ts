import { withCaller } from "@/lib/api/with-caller";
import { readConfigBody } from "@/lib/api/read-config-body";
import { getDb } from "@/lib/db/client";
import { resolveQuerySchema } from "@/lib/schemas/config-audit";
import { resolveConfig } from "@/lib/services/resolve-config";
import { otherMethods } from "@/lib/api/other-methods";

export const dynamic = "force-dynamic";

// POST /v1/resolve[?filename=…]: the audit's parsing and resolution without verdicts; unmetered.
export const POST = withCaller(
  async ({ req, query }) => resolveConfig(await getDb(), { text: await readConfigBody(req), filename: query.filename }),
  { query: resolveQuerySchema },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
