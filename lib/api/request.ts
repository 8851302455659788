import { z, type ZodType } from "zod";
import { readCapped } from "@/lib/net/read-capped";
import { firstDuplicateMember } from "@/lib/engine/duplicate-member";
import { ApiError } from "./errors";

/**
 * Caller-supplied text quoted in an error message, cut to `max` characters: a message names what was wrong,
 * it does not echo a 5,000-character field name or path back.
 */
export function clipForMessage(text: string, max = 80): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** One line naming each failed field, for the Error body's message; `root` names the input as a whole. */
export function describeZodError(err: z.ZodError, root = "body"): string {
  return err.issues
    .slice(0, 5)
    .map((i) => {
      const where = clipForMessage(i.path.length ? i.path.join(".") : root);
      if (i.code === "unrecognized_keys") {
        const keys = i.keys.slice(0, 5).map((k) => `"${clipForMessage(k)}"`);
        // A URL's names are its parameters; a body's and an MCP tool's arguments are fields.
        const noun = root === "query" && i.path.length === 0 ? "parameter(s)" : "field(s)";
        return `${where}: unknown ${noun} ${keys.join(", ")}${i.keys.length > 5 ? ` and ${i.keys.length - 5} more` : ""}`;
      }
      return `${where}: ${i.message}`;
    })
    .join("; ");
}

/**
 * Validates one input (a JSON body, a query string, an MCP tool's arguments). Text holding a NUL character or
 * an unpaired surrogate is refused first, whatever the schema: no name, query or label has one, Postgres text
 * cannot store a NUL, and the drivers turn a lone surrogate (`"\\ud800"` is valid JSON) into U+FFFD on the way,
 * so a label would be stored as other text than was sent, with a 200.
 */
export function parseWith<T>(schema: ZodType<T>, value: unknown, root = "body"): T {
  const refuse = (path: string, code: string, message: string) =>
    new ApiError("invalid_request", `${path || root}: ${message}`, { issues: [{ code, path: path ? path.split(".") : [], message }] });
  // one walk over the input for both (it runs on every call)
  const bad = firstBadText(value, (s) => (s.includes("\u0000") ? "nul_character" : LONE_SURROGATE.test(s) ? "lone_surrogate" : null));
  if (bad?.fault === "nul_character") throw refuse(bad.path, bad.fault, "must not contain NUL (\\u0000) characters");
  if (bad?.fault === "lone_surrogate") throw refuse(bad.path, bad.fault, "must be well-formed Unicode text (holds an unpaired surrogate such as \\ud800)");
  const r = schema.safeParse(value);
  // the issues ride along for the pages, which say them in their own words (app/_components/field-refusal.ts)
  if (!r.success) throw new ApiError("invalid_request", describeZodError(r.error, root), { issues: r.error.issues });
  return r.data;
}

/** A URL's query parameters validated as one input (closed when the schema is: see closedInput). */
export function parseQuery<T>(schema: ZodType<T>, url: URL): T {
  return parseWith(schema, queryObject(url), "query");
}

/** The input of a route or tool that takes none: any query parameter or argument is one it does not know. */
export const NO_INPUT = z.strictObject({});

/**
 * An input schema closed to fields it does not name: a misspelt `limt` or `stict` is refused (a 400 naming it)
 * rather than silently leaving the default. A zod object is closed here whatever it was declared as, so a
 * schema shared with a looser reader cannot open a route; a schema of another kind (a pipe, as the stamp's) must
 * close itself.
 */
export function closedInput<T>(schema: ZodType<T>): ZodType<T> {
  return schema instanceof z.ZodObject ? (schema.strict() as unknown as ZodType<T>) : schema;
}

/** A surrogate that is not half of a pair (matched by UTF-16 code unit: no `u` flag). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

type TextFault = "nul_character" | "lone_surrogate";

/** The first string or key `fault` names a fault of, with its path ("" for the value itself), or null. */
function firstBadText(value: unknown, fault: (s: string) => TextFault | null, path = "", depth = 0): { path: string; fault: TextFault } | null {
  if (typeof value === "string") {
    const f = fault(value);
    return f ? { path, fault: f } : null;
  }
  if (typeof value !== "object" || value === null || depth > 64) return null;
  for (const [k, v] of Object.entries(value)) {
    const at = path ? `${path}.${k}` : k;
    const f = fault(k);
    if (f) return { path: at, fault: f };
    const found = firstBadText(v, fault, at, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/** Reads a JSON body, capped in size, and validates it; every failure is a 400 (413 when too large). */
export async function readJsonBody<T>(req: Request, schema: ZodType<T>, maxBytes = 64 * 1024): Promise<T> {
  const text = await readTextBody(req, maxBytes);
  if (!text.trim()) throw new ApiError("invalid_request", "request body is empty; send a JSON object");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ApiError("invalid_request", `request body is not valid JSON: ${(err as Error).message}`);
  }
  const input = parseWith(schema, value);
  // a member named twice is a 400, as a query parameter given twice is: JSON.parse keeps the last silently, so
  // {"policy_id":"builtin:strict", …, "policy_id":"builtin:baseline"} was decided under whichever came last.
  // Checked after the schema, which has refused unknown members and NUL characters in names: what is named here
  // is one of the input's own fields
  let duplicate: string | null;
  try {
    duplicate = firstDuplicateMember(text);
  } catch {
    // the check recurses, and only an earlier copy of a member (the schema saw the last) can nest this deep
    throw new ApiError("invalid_request", "request body nests too deeply");
  }
  if (duplicate !== null) throw new ApiError("invalid_request", `${clipForMessage(duplicate)}: given more than once; send it once`);
  return input;
}

/** Reads the body as text, refusing more than maxBytes without buffering the rest. */
export async function readTextBody(req: Request, maxBytes: number): Promise<string> {
  return new TextDecoder("utf-8", { fatal: false }).decode(await readBinaryBody(req, maxBytes));
}

export async function readBinaryBody(req: Request, maxBytes: number): Promise<Buffer> {
  const bytes = await readCapped(req, maxBytes);
  if (bytes === null) throw new ApiError("payload_too_large", `request body is over the ${maxBytes}-byte limit`);
  return bytes;
}

/** Query parameters as a plain object, for zod parsing; a parameter given twice is a 400, not a silent pick. */
export function queryObject(url: URL): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of url.searchParams) {
    if (Object.hasOwn(out, k)) throw new ApiError("invalid_request", `${clipForMessage(k)}: given more than once; send it once`);
    out[k] = v;
  }
  return out;
}
