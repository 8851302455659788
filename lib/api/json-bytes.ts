// JSON response bodies as UTF-8 bytes. Handing undici a string makes it re-check every character for lone
// surrogates (its USVString conversion) and then encode it; for a 60 KB search result that costs more than
// JSON.stringify itself. JSON.stringify never emits a lone surrogate (it escapes them), so encoding its
// output directly gives the same bytes.

/** Values marked as shared and immutable (a memoized search result), with their bytes once encoded. */
const shared = new WeakMap<object, Uint8Array<ArrayBuffer> | null>();

/**
 * Marks a value that many responses send unchanged and nobody mutates (a memo's entry): jsonBytes encodes
 * it once. Returns the value.
 */
export function markSharedJson<T extends object>(value: T): T {
  if (!shared.has(value)) shared.set(value, null);
  return value;
}

/** `value` as JSON in UTF-8; a value marked by markSharedJson is encoded only the first time. */
export function jsonBytes(value: unknown): Uint8Array<ArrayBuffer> {
  if (value === null || typeof value !== "object") return Buffer.from(JSON.stringify(value) ?? "null", "utf8");
  const kept = shared.get(value);
  if (kept) return kept;
  const bytes = Buffer.from(JSON.stringify(value), "utf8");
  if (kept === null) shared.set(value, bytes);
  return bytes;
}
