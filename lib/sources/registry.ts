import { REGISTRY_PAGE_LIMIT } from "@/lib/config";
import { readListPage } from "@/lib/catalog/normalize-registry-entry";
import { fetchJson, type FetchJsonOptions } from "./http";

export interface ListServersQuery {
  /** Only rows with updatedAt strictly after this instant (incremental sync; the registry then includes deleted rows). */
  updatedSince?: Date | null;
  /** Only the version each server marks latest. */
  latestOnly?: boolean;
}

export interface ListPage {
  entries: unknown[];
  nextCursor: string | null;
  url: string;
}

/**
 * Walks GET /v0.1/servers page by page (limit=100, opaque cursor passed back
 * URL-encoded) until the registry stops returning a nextCursor.
 */
export async function* listRegistryServers(baseUrl: string, query: ListServersQuery = {}, http: FetchJsonOptions = {}): AsyncGenerator<ListPage> {
  let cursor: string | null = null;
  const seen = new Set<string>();
  for (;;) {
    const params = new URLSearchParams({ limit: String(REGISTRY_PAGE_LIMIT) });
    if (query.latestOnly) params.set("version", "latest");
    if (query.updatedSince) params.set("updated_since", query.updatedSince.toISOString());
    if (cursor) params.set("cursor", cursor);
    const url = `${baseUrl}/v0.1/servers?${params}`;
    const page = readListPage(await fetchJson(url, http));
    yield { ...page, url };
    if (!page.nextCursor || page.entries.length === 0) return;
    // A registry that hands back a cursor it already gave would loop forever.
    if (seen.has(page.nextCursor)) throw new Error(`registry repeated cursor ${page.nextCursor}`);
    seen.add(page.nextCursor);
    cursor = page.nextCursor;
  }
}
