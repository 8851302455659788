import { headers } from "next/headers";
import { callForPage } from "@/lib/api/page-call";
import { readByAPerson } from "@/lib/api/page-request";
import { parseWith } from "@/lib/api/request";
import { SEARCH_QUERY_MAX, SEARCH_QUERY_MIN } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { searchQuerySchema } from "@/lib/schemas/health-card";
import { searchServers } from "@/lib/services/search-servers";
import { SEARCH_BOX_LIMIT, queryRefusal, searchErrorText, toSearchBoxResult, type SearchBoxAnswer } from "./search-answer";

/**
 * The search of the home page's `/?q=` (the search box's form, sent without JavaScript): GET /v1/search's
 * service under the same metering, as the keyless caller the box is (docs/web-pages.md, "Search box"). A query
 * the API would refuse is answered with a message before anything is counted; a HEAD or a prefetch asks nothing.
 */
export async function homeSearch(param: string | string[] | undefined): Promise<SearchBoxAnswer | undefined> {
  if (param === undefined) return undefined;
  const raw = Array.isArray(param) ? (param[0] ?? "") : param;
  const q = raw.trim();
  const refusal = queryRefusal(q, SEARCH_QUERY_MIN, SEARCH_QUERY_MAX);
  if (refusal) return { q: raw, error: refusal };
  if (!readByAPerson(await headers())) return { q: raw };
  const answer = await callForPage(null, async ({ charge }) =>
    searchServers(await getDb(), parseWith(searchQuerySchema, { q, limit: String(SEARCH_BOX_LIMIT) }, "query"), { charge }),
  );
  if (!answer.ok) return { q: raw, error: searchErrorText(answer.status, answer.body) };
  return { q: raw, results: answer.value.results.map(toSearchBoxResult) };
}
