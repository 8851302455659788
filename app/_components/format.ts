// How the pages write times and values: ISO instants as "2026-03-01 14:05 UTC", JSON compactly.

export function utc(iso: string | null | undefined): string {
  if (!iso) return "never";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

export function compactJson(v: unknown): string {
  if (v === undefined) return "";
  const s = JSON.stringify(v);
  return s.length > 300 ? `${s.slice(0, 297)}…` : s;
}

export const number = (n: number) => n.toLocaleString("en");

/** The page path of a server name (slash kept, the rest escaped), as lib/cards/links.ts builds it. */
export { serverPagePath, badgePath } from "@/lib/cards/links";
