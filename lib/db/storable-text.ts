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
