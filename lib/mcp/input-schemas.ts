import type { ZodType } from "zod";
import { closedInput, NO_INPUT } from "@/lib/api/request";
import { inputObjectSchema, type JsonSchema } from "@/lib/openapi/json-schema-of";
import { deepFreeze } from "@/lib/cache/deep-freeze";

/**
 * A tool's arguments as it validates them: its REST twin's zod schema, closed as the twin's query is (an agent
 * that misspells an argument, `limt`, hears so rather than getting the default silently). A tool without input
 * takes no arguments at all.
 */
export function toolInputZod(schema: ZodType | null): ZodType {
  return schema ? closedInput(schema) : NO_INPUT;
}

const built = new WeakMap<ZodType, JsonSchema>();
let noInput: JsonSchema | undefined;

/**
 * The inputSchema tools/list shows for a tool: converted from the same zod schema the tool parses with, by the
 * converter /v1/openapi.json uses (JSON Schema 2020-12, MCP's default dialect), so each argument shows what
 * its REST parameter does: the `.describe()` words of lib/schemas, bounds, enums, `format` (webhook_url `uri`,
 * kept here: an input format only tells a client what to send, unlike an output one, see output-schemas.ts),
 * and each default, pipes' included (`limit` 20, `strict` false), which the SDK's own conversion left out.
 * Converted once per schema and process (the endpoint registers its tools on a fresh server per request).
 */
export function toolInputJsonSchema(schema: ZodType | null): JsonSchema {
  if (!schema) return (noInput ??= deepFreeze(inputObjectSchema(NO_INPUT)));
  let json = built.get(schema);
  if (!json) built.set(schema, (json = deepFreeze(inputObjectSchema(toolInputZod(schema)))));
  return json;
}
