import { z, type ZodType } from "zod";

export type JsonSchema = Record<string, unknown>;

/**
 * A zod schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect, and MCP's default when a schema names none),
 * without the `$schema` line. Checks zod cannot express (refinements, transforms) are left out, not refused.
 */
export function jsonSchemaOf(schema: ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as JsonSchema;
  return rest;
}
