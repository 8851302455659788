import { z } from "zod";
import { RESPONSE_COMPONENTS, type ResponseComponent } from "@/lib/openapi/operations";
import { jsonSchemaOf, type JsonSchema } from "@/lib/openapi/json-schema-of";
import { errorBodySchema } from "@/lib/schemas/error";
import { deepFreeze } from "@/lib/cache/deep-freeze";

/**
 * Formats whose common validators refuse values our zod schemas accept: the MCP SDK client's ajv-formats `uri`
 * is RFC 3986 (no IDN host, no `|`, no space; zod's z.url() takes what WHATWG URL parses, as the evidence URLs
 * and webhook URLs we store are), and its `email` refuses a domain label ending in "-" that zod's e-mail check
 * takes. A client that validates structured content would then reject our answer, so these formats are left
 * out of tools' output schemas (the field stays a string, and an e-mail keeps zod's own pattern). `date-time`
 * and `uuid` stay: zod's patterns beside them are the stricter check.
 */
const UNSHARED_FORMATS = new Set(["uri", "email"]);

function withoutUnsharedFormats(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutUnsharedFormats);
  if (!node || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([k, v]) => !(k === "format" && typeof v === "string" && UNSHARED_FORMATS.has(v)))
      .map(([k, v]) => [k, withoutUnsharedFormats(v)]),
  );
}

/**
 * A tool's result is its REST twin's resource, or (isError) the REST Error body: anyOf the two, each titled
 * with its component name in /v1/openapi.json (the /docs page links them). The root says `type: object`, as
 * MCP asks of an output schema; one root keeps the `$defs` that recursive JSON values need resolvable.
 */
function buildOutputSchema(component: ResponseComponent): JsonSchema {
  const { anyOf, ...rest } = jsonSchemaOf(z.union([RESPONSE_COMPONENTS[component], errorBodySchema]), "output") as JsonSchema & { anyOf: JsonSchema[] };
  const [resource, error] = anyOf;
  return deepFreeze(withoutUnsharedFormats({ type: "object", ...rest, anyOf: [{ title: component, ...resource }, { title: "Error", ...error }] }) as JsonSchema);
}

const built = new Map<ResponseComponent, JsonSchema>();

/** The output schema of a tool answering `component`, converted once per process (schemas do not change while it runs). */
export function toolOutputSchema(component: ResponseComponent): JsonSchema {
  let schema = built.get(component);
  if (!schema) built.set(component, (schema = buildOutputSchema(component)));
  return schema;
}
