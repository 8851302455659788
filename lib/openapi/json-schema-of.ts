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

/**
 * An input object (a query, a body, an MCP tool's arguments) as JSON Schema, each property with the default an
 * absent value takes. zod's converter drops the default of a field whose schema is a pipe (integerParam,
 * flagParam: `limit` 20, `strict` false); parsing the field without a value says it all the same. Shared by
 * /v1/openapi.json's parameters and MCP's tools/list, so the two cannot tell different defaults.
 */
export function inputObjectSchema(schema: ZodType): JsonSchema {
  const json = jsonSchemaOf(schema, "input");
  const properties = json.properties as Record<string, JsonSchema> | undefined;
  const shape: Record<string, ZodType> = schema instanceof z.ZodObject ? schema.shape : {};
  if (!properties) return json;
  const filled = Object.fromEntries(
    Object.entries(properties).map(([name, property]) => {
      if ("default" in property || !shape[name]) return [name, property];
      const absent = shape[name].safeParse(undefined);
      return [name, absent.success && absent.data !== undefined ? { ...property, default: absent.data } : property];
    }),
  );
  return { ...json, properties: filled };
}
