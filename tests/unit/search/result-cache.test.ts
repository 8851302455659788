import { describe, expect, it } from "vitest";
import { SEARCH_CACHE_CARDS } from "@/lib/config";
import { cachedSearch } from "@/lib/search/result-cache";

describe("cachedSearch", () => {
  it("keeps at most SEARCH_CACHE_CARDS cards, however few searches hold them", async () => {
    const db = {};
    let computed = 0;
    const search = (key: string) => cachedSearch(db, key, async () => (computed++, { ok: true, results: Array.from({ length: 50 }, (_, i) => ({ i })) }), 0);
    // the variants of one query a caller pays for once ("github", "GitHub", … at every limit): 50 cards each
    const keys = Array.from({ length: SEARCH_CACHE_CARDS / 50 }, (_, i) => `50\u0000q${i}`);
    for (const key of keys) await search(key);
    await new Promise((r) => setTimeout(r, 0));
    await search(keys[0]);
    expect(computed).toBe(keys.length); // the first is still kept: exactly SEARCH_CACHE_CARDS
    await search("50\u0000one more");
    await new Promise((r) => setTimeout(r, 0));
    await search(keys[1]); // the least recently used went for it
    expect(computed).toBe(keys.length + 2);
    await search(keys[0]);
    expect(computed).toBe(keys.length + 2);
  });
});
