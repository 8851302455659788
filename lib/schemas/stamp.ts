import { z } from "zod";
import { STAMP_FORMAT } from "@/lib/engine/stamp";
import { POLICY_IDS } from "@/lib/engine/policies";
import { DECISIONS } from "@/lib/engine/types";

// The compact stamp (DESIGN §10). GET /v1/stamp answers the line itself as text/plain; catalog_stamp answers it
// inside this object, since an MCP tool's structured content is a JSON object.

// syntax characters only: JSON Schema validators compile patterns in Unicode mode, where an escaped "-" is an error
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
const oneOf = (values: readonly string[]) => `(?:${values.map(escape).join("|")})`;
const digest = "sha256:[0-9a-f]{64}";

/** `CATALOG-STAMP/1 <decision> <server_name> <policy_id>@1 facts=… input=… at=… until=… audit=<uuid or ->`; names hold no whitespace. */
const stampLine = `${escape(STAMP_FORMAT)} ${oneOf(DECISIONS)} \\S+ ${oneOf(POLICY_IDS)}@1 facts=${digest} input=${digest} at=\\S+ until=\\S+ audit=(?:[0-9a-f-]{36}|-)`;

export const stampLineSchema = z.string().regex(new RegExp(`^${stampLine}$`), "not a CATALOG-STAMP/1 line");

/** GET /v1/stamp's text/plain body: the line and the newline that ends it (`$` alone would refuse the body as sent). */
export const stampTextSchema = z.string().regex(new RegExp(`^${stampLine}\\n$`), "not a CATALOG-STAMP/1 line ending in a newline");

export const stampResultSchema = z.strictObject({
  ok: z.literal(true),
  stamp: stampLineSchema,
});
export type StampResult = z.infer<typeof stampResultSchema>;
