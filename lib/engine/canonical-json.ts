import canonicalize from "canonicalize";

// RFC 8785 (JCS) defines a value's canonical text through ECMAScript's own JSON.stringify: strings and numbers
// are written exactly as JSON.stringify writes them, members are sorted by their names' UTF-16 code units and
// there is no whitespace. So for plain JSON data the native serializer gives the canonical text once every
// object's members are inserted in that order: a copy made in JCS order and serialized natively costs about
// half of what the `canonicalize` library's string-building recursion does (bench/preflight-engine: the facts'
// text was half of an evaluation that canonicalizes them).
//
// The library stays the reference. Whatever the copy cannot carry exactly goes to it, whole:
// - a member name that begins with a digit: an object lists integer-like names first, in numeric order, whatever
//   the order they were inserted in, while JCS sorts "10" before "9";
// - `__proto__`, which an assignment would take as the copy's prototype;
// - numbers that are not finite (the library refuses them; JSON.stringify would write null);
// - an array with holes, which the library passes over;
// - anything but strings, finite numbers, booleans, null, undefined, arrays and objects whose prototype is
//   Object.prototype or null (a Date, a class instance, `toJSON`, functions, symbols, bigints).
// tests/unit/engine/canonical-json.test.ts checks both give the same text over generated values.

const OTHER = Symbol("not plain JSON data");

/** The RFC 8785 canonical JSON text of a JSON value, or undefined where the value has no JSON form. */
export function jcsText(value: unknown): string | undefined {
  const ordered = jcsOrdered(value);
  return ordered === OTHER ? canonicalize(value) : JSON.stringify(ordered);
}

function jcsOrdered(value: unknown): unknown {
  switch (typeof value) {
    case "string":
    case "boolean":
    case "undefined":
      return value;
    case "number":
      return Number.isFinite(value) ? value : OTHER;
    case "object":
      if (value === null) return null;
      if (Array.isArray(value)) return orderedArray(value);
      return orderedObject(value as Record<string, unknown>);
    default:
      return OTHER;
  }
}

function orderedArray(items: unknown[]): unknown[] | typeof OTHER {
  if (Object.getPrototypeOf(items) !== Array.prototype) return OTHER;
  const out = new Array<unknown>(items.length);
  for (let i = 0; i < items.length; i++) {
    const item = jcsOrdered(items[i]);
    // a hole: the library's reduce passes over it, where JSON.stringify would write null
    if (item === OTHER || (item === undefined && !(i in items))) return OTHER;
    out[i] = item;
  }
  return out;
}

function orderedObject(object: Record<string, unknown>): Record<string, unknown> | typeof OTHER {
  const proto = Object.getPrototypeOf(object);
  if ((proto !== Object.prototype && proto !== null) || typeof object.toJSON === "function") return OTHER;
  const names = Object.keys(object).sort();
  const out: Record<string, unknown> = {};
  for (const name of names) {
    const first = name.charCodeAt(0);
    if ((first >= 48 && first <= 57) || name === "__proto__") return OTHER;
    const member = jcsOrdered(object[name]);
    if (member === OTHER) return OTHER;
    out[name] = member;
  }
  return out;
}
