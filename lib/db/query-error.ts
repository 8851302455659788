import { DrizzleQueryError } from "drizzle-orm";

/**
 * What went wrong, in words. Drizzle wraps every failed statement as "Failed query: <SQL> params: <values>":
 * hundreds of kilobytes for a batch insert, holding the rows it carried (an account's e-mail, a session's
 * token), while the database's own reason ("No space left on device", "could not connect") is only its
 * cause. Such an error reads as that reason and the statement's first words; any other as its message.
 */
export function errorMessage(err: unknown): string {
  if (err instanceof DrizzleQueryError && err.cause instanceof Error && err.cause.message) {
    const statement = err.query.replace(/\s+/g, " ").trim();
    return `${err.cause.message} (in: ${statement.length > 60 ? `${statement.slice(0, 60)}…` : statement})`;
  }
  return err instanceof Error ? err.message : String(err);
}

/** An unexpected error for the server log: errorMessage and where it was thrown (never a statement's values). */
export function errorForLog(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const frames = (err.stack ?? "").split("\n").filter((l) => /^\s+at /.test(l));
  return [`${err.name}: ${errorMessage(err)}`, ...frames].join("\n");
}
