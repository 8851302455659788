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

/**
 * A URL from catalog data (a listing's repository, website or remote, evidence) as a link target, or null
 * when it is not http(s). Listings are published by anyone: a `javascript:` or `data:` URL must never become
 * something a reader clicks (React only defuses `javascript:`, and into a link that throws); such a value is
 * shown as text instead.
 */
export function externalHref(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const { protocol } = new URL(url);
    return protocol === "https:" || protocol === "http:" ? url : null;
  } catch {
    return null;
  }
}

/** The page path of a server name (slash kept, the rest escaped), as lib/cards/links.ts builds it. */
export { serverPagePath, badgePath } from "@/lib/cards/links";
