import { utc } from "./format";

/** An instant as readable UTC, with the exact value machine-readable. */
export function Time({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <span className="muted">never</span>;
  return <time dateTime={iso}>{utc(iso)}</time>;
}
