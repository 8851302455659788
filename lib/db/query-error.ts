/**
 * Drizzle's failed-statement error (DrizzleQueryError), known by its shape: the built server holds several copies
 * of drizzle's module (Next bundles it into more than one chunk, and `instanceof` fails across copies), so the
 * class test missed the errors of most routes and logged their statements' values after all.
 */
function failedStatement(err: unknown): { query: string; cause: Error } | null {
  const e = err as { query?: unknown; params?: unknown; cause?: unknown } | null;
  if (!(err instanceof Error) || !e || typeof e.query !== "string" || !Array.isArray(e.params)) return null;
  if (!(e.cause instanceof Error) || !e.cause.message || !err.message.startsWith("Failed query: ")) return null;
  return { query: e.query, cause: e.cause };
}

/**
 * What went wrong, in words. Drizzle wraps every failed statement as "Failed query: <SQL> params: <values>":
 * hundreds of kilobytes for a batch insert, holding the rows it carried (an account's e-mail, a session's
 * token), while the database's own reason ("No space left on device", "could not connect") is only its
 * cause. Such an error reads as that reason and the statement's first words; any other as its message.
 */
export function errorMessage(err: unknown): string {
  const failed = failedStatement(err);
  if (failed) {
    const statement = failed.query.replace(/\s+/g, " ").trim();
    return `${failed.cause.message} (in: ${statement.length > 60 ? `${statement.slice(0, 60)}…` : statement})`;
  }
  return err instanceof Error ? err.message : String(err);
}

/** An unexpected error for the server log: errorMessage and where it was thrown (never a statement's values). */
export function errorForLog(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const frames = (err.stack ?? "").split("\n").filter((l) => /^\s+at /.test(l));
  return [`${err.name}: ${errorMessage(err)}`, ...frames].join("\n");
}
