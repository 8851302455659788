import { errorMessage } from "./query-error";

/** A NUL, or a surrogate that is not half of a pair (matched by UTF-16 code unit: no `u` flag). */
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNSTORABLE_ALL = new RegExp(UNSTORABLE.source, "g");
/** Any surrogate: a quick first look, since most text has none and the exact pattern is slower to run. */
const SURROGATE = /[\ud800-\udfff]/;

const mayBeUnstorable = (s: string) => s.includes("\u0000") || (SURROGATE.test(s) && UNSTORABLE.test(s));

/**
 * Text from outside (a remote's serverInfo, a receiver's answer, an upstream error) as Postgres can store it:
 * `text` and `jsonb` refuse U+0000, and jsonb a lone surrogate (JSON.parse accepts `"\ud800"`, JSON.stringify
 * writes it back, jsonb refuses it; the drivers turn one in a `text` parameter into U+FFFD on the way, so the row
 * would not hold what the code compared). One such character fails the whole statement, so a single upstream
 * answer would fail every write of its batch, every run. Each becomes U+FFFD (the replacement character).
 */
export function storableText(s: string): string;
export function storableText(s: string | null | undefined): string | null;
export function storableText(s: string | null | undefined): string | null {
  if (s == null) return null;
  return mayBeUnstorable(s) ? s.replace(UNSTORABLE_ALL, "\uFFFD") : s;
}

/**
 * A JSON value from outside (an upstream's answer, a registry listing) with every string and key made storable
 * (storableText), for a `jsonb` column or for fields taken from it into `text` ones. A value with nothing to change
 * is returned as it is (the same object), so the common case allocates nothing.
 */
export function storableJson<T>(value: T): T {
  if (typeof value === "string") return storableText(value) as T;
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const s = storableJson(value[i]);
      if (s !== value[i]) (out ??= value.slice())[i] = s;
    }
    return (out ?? value) as T;
  }
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj);
  for (let i = 0; i < keys.length; i++) {
    const s = storableJson(obj[keys[i]]);
    if (s === obj[keys[i]] && !mayBeUnstorable(keys[i])) continue;
    // something changes: the object is rebuilt in its key order (fromEntries: a "__proto__" key stays a key)
    return Object.fromEntries(keys.map((k, j) => [storableText(k), j < i ? obj[k] : j === i ? s : storableJson(obj[k])])) as T;
  }
  return value;
}

/**
 * A failure as a stored record shows it (a sync's `error`, on the home page and in /v1/coverage): the
 * database's own reason where drizzle wraps it with the whole statement and its values (errorMessage),
 * storable, at most `max` characters.
 */
export function failureText(err: unknown, max = 2000): string {
  return storableText(Array.from(errorMessage(err)).slice(0, max).join(""));
}
