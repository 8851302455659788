import toRegexRange from "to-regex-range";
import { z } from "zod";

// Parameters that arrive as text in a query string and as JSON values in MCP tool arguments: one schema for
// both, so a client may send the number or the boolean the contract describes, or its text form.

/**
 * An integer from `min` to `max`: a JSON integer, or its decimal digits as a query string carries them.
 * Every refusal names the range: a number outside it, however large (a JSON 1e300, digits past 2^53), says
 * "<name> must be from <min> to <max>"; anything else (2.5, "1e2", true) "<name> must be an integer from …".
 */
export function integerParam(name: string, min: number, max: number) {
  const outOfRange = `${name} must be from ${min} to ${max}`;
  const notInteger = `${name} must be an integer from ${min} to ${max}`;
  // JSON Schema's minimum and maximum bind numbers only, so the text form's pattern names the digit strings in
  // range (leading zeros allowed, as the route reads them); the route itself checks the range after the
  // transform, to say "out of range" rather than "no match"
  const inRange = `^0*${toRegexRange(min, max)}$`;
  // a minus sign is read too: "-1" is an integer out of range, not "not an integer"
  const text = z.string().regex(/^-?\d+$/).transform(Number).meta({ pattern: inRange });
  // any finite JSON number, not z.number().int(): zod's int() refuses integers past 2^53 with its own
  // "Too big: expected int to be <=9007199254740991", where the caller needs the range; the pipe below tells a
  // fraction from an integer out of range. JSON Schema still says integer (its ±2^53 bounds were noise).
  // In the pipe, a number's type error can only be digits past 1.8e308 read as Infinity: out of range too.
  const number = z.number().meta({ type: "integer" });
  return (
    z
      .union([number, text], { error: notInteger })
      .pipe(z.number({ error: outOfRange }).refine(Number.isInteger, { error: notInteger, abort: true }).min(min, outOfRange).max(max, outOfRange))
      // the bounds sit in the pipe, which JSON Schema (OpenAPI, MCP tools/list) cannot show: said here too
      .meta({ minimum: min, maximum: max })
  );
}

/**
 * A text field or parameter that says "<name> is required" when it is missing, rather than zod's type error about
 * undefined; a value of another type keeps zod's message, and the length checks chained on it their own.
 */
export function requiredText(name: string) {
  return z.string({ error: (issue) => (issue.input === undefined ? `${name} is required` : undefined) });
}

/** A yes/no option: a JSON boolean, or 1/0/true/false as text. */
export const flagParam = z.union([z.boolean(), z.enum(["1", "0", "true", "false"]).transform((v) => v === "1" || v === "true")], {
  error: "must be true or false (1 or 0)",
});

/**
 * A required exact canonical server name (contract: server_name is 1 to 300 characters). Described here, once,
 * for every input that takes one: /v1/openapi.json and MCP's tools/list show the same words.
 */
export function serverNameParam(name: string) {
  return requiredText(name).min(1).max(300).describe("the exact canonical server name (1 to 300 characters), e.g. io.github.owner/name");
}
