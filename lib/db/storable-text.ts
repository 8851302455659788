/**
 * Text from outside (a remote's serverInfo, a receiver's answer, an upstream error) as Postgres can store it:
 * `text` and `jsonb` refuse U+0000, and one such character fails the whole statement, so a single upstream
 * answer would fail every write of its batch, every run. Each NUL becomes U+FFFD (the replacement character).
 */
export function storableText(s: string): string;
export function storableText(s: string | null | undefined): string | null;
export function storableText(s: string | null | undefined): string | null {
  return s == null ? null : s.replace(/\u0000/g, "\uFFFD");
}

/**
 * A failure as a stored record shows it (a sync's `error`, on the home page and in /v1/coverage): the
 * database's own message where a query wrapper carries it as its cause (drizzle's "Failed query: <the whole
 * statement> params: <every value>" runs to thousands of characters of listing text), storable, at most `max`.
 */
export function failureText(err: unknown, max = 2000): string {
  const e = err as { message?: unknown; cause?: { message?: unknown } } | null;
  const wrapped = typeof e?.message === "string" && e.message.startsWith("Failed query:") && typeof e.cause?.message === "string";
  const message = wrapped ? `database refused the write: ${e.cause!.message as string}` : typeof e?.message === "string" ? e.message : String(err);
  return storableText(Array.from(message).slice(0, max).join(""));
}
