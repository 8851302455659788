import { waitText } from "./_components/wait-text";
import type { HealthCard } from "@/lib/schemas/health-card";

// Shared by the search box (a client component) and the home page's server-side search, so a reader with and
// without JavaScript asks the same query the same way and reads the same results and messages.

/** A query's length as GET /v1/search's schema counts it: code points, so an emoji is one character, not two. */
export const queryLength = (q: string) => Array.from(q).length;

/**
 * Why the box and the page do not ask a query GET /v1/search would refuse (400), or null to ask it. Both say
 * it in the same words; the box once sent an over-long query and showed the API's "q: Too big: …".
 */
export function queryRefusal(q: string, min: number, max: number): string | null {
  const length = queryLength(q);
  if (length < min) return `Type at least ${min} characters to search.`;
  if (length > max) return `A search is at most ${max} characters; this one has ${length}.`;
  return null;
}

/** Results the box and the page ask for. */
export const SEARCH_BOX_LIMIT = 10;

/** What the box shows of each result (a HealthCard's fields, as GET /v1/search answers them). */
export interface SearchBoxResult {
  server_name: string;
  title: string | null;
  description: string | null;
  health: string;
  verified: boolean;
  /** Whether a false `verified` was observed or is only not known yet: the box says which, as the server page does. */
  verified_status: HealthCard["verified_status"];
  trust_score: number;
  match: string;
}

/**
 * The home page's own search for `/?q=`, done on the server: its results, or the message the box shows, or
 * neither when the request was one nobody reads (a HEAD, a prefetch) and the query was not asked.
 */
export type SearchBoxAnswer = { q: string; results: SearchBoxResult[] } | { q: string; error: string } | { q: string };

export function toSearchBoxResult(r: SearchBoxResult): SearchBoxResult {
  const { server_name, title, description, health, verified, verified_status, trust_score, match } = r;
  return { server_name, title, description, health, verified, verified_status, trust_score, match };
}

/** The line the box shows for an error answer of GET /v1/search (the contract's Error body, or none). */
export function searchErrorText(status: number, body: { message?: string; retry_after?: number } | null): string {
  const wait = body?.retry_after ? ` Try again in about ${waitText(body.retry_after)}, or sign in and use an API key.` : "";
  return `${body?.message ?? `search failed (${status})`}.${wait}`;
}
