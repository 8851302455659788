import toRegexRange from "to-regex-range";
import { z } from "zod";

// Parameters that arrive as text in a query string and as JSON values in MCP tool arguments: one schema for
// both, so a client may send the number or the boolean the contract describes, or its text form.

/** An integer from `min` to `max`: a JSON integer, or its decimal digits as a query string carries them. */
export function integerParam(name: string, min: number, max: number) {
  const outOfRange = `${name} must be from ${min} to ${max}`;
  // JSON Schema's minimum and maximum bind numbers only, so the text form's pattern names the digit strings in
  // range (leading zeros allowed, as the route reads them); the route itself checks the range after the
  // transform, to say "out of range" rather than "no match"
  const inRange = `^0*${toRegexRange(min, max)}$`;
  const text = z.string().regex(/^\d+$/).transform(Number).meta({ pattern: inRange });
  return (
    z
      .union([z.number().int(), text], { error: `${name} must be an integer` })
      // one message for any value out of range, a number past 2^53 included (it failed two checks, said twice)
      .pipe(z.number().int({ error: outOfRange, abort: true }).min(min, outOfRange).max(max, outOfRange))
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
