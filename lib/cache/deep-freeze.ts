/**
 * Freezes a JSON-like value and everything reachable from it, and returns it. For values a memo shares
 * between requests: a stray write then fails loudly (modules are strict) instead of changing what other
 * requests see, and code that keys work on identity (lib/engine/digest.ts) can rely on the value not
 * changing.
 */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object") {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
}
