import { describe, expect, it } from "vitest";
import * as React from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { SearchResult } from "@/lib/schemas/health-card";

// the component's JSX is compiled with the classic runtime here (vitest, not Next.js): it needs React in scope
Object.assign(globalThis, { React });
const { SearchBox } = await import("@/app/search-box");
const { toSearchBoxResult } = await import("@/app/search-answer");

// A search result said " · verified" when the card's verified was true and nothing otherwise: a server the
// harvester had not reached (verified_status unknown) read exactly as one whose repository is gone. The box (with
// and without JavaScript) now says what the server page and the Open Graph image say: yes, no or not yet known.
const card = (name: string, verified_status: "verified" | "not_verified" | "unknown") =>
  ({
    server_name: name,
    title: null,
    description: null,
    health: verified_status === "verified" ? "healthy" : "unknown",
    verified: verified_status === "verified",
    verified_status,
    trust_score: 40,
    match: "similar_name_or_title",
    // the rest of the card, which the box does not show
    health_problems: [],
  }) as unknown as SearchResult["results"][number];

const lines = (html: string) => [...html.matchAll(/<div class="small">([\s\S]*?)<\/div>/g)].map((m) => m[1].replace(/<[^>]+>/g, ""));

describe("the search box's results", () => {
  it("say verified yes, no or not yet known, from the card's verified_status", () => {
    const results = [card("io.github.a/yes", "verified"), card("io.github.a/no", "not_verified"), card("io.github.a/pending", "unknown")].map(toSearchBoxResult);
    const html = renderToStaticMarkup(React.createElement(SearchBox, { initial: { q: "io.github.a", results }, maxChars: 200 }));
    expect(lines(html)).toEqual([
      "health healthy · trust 40/100 · verified yes",
      "health unknown · trust 40/100 · verified no",
      "health unknown · trust 40/100 · verified not yet known",
    ]);
  });

  it("keep verified_status when the page answers /?q= itself", () => {
    expect(toSearchBoxResult(card("io.github.a/pending", "unknown")).verified_status).toBe("unknown");
  });
});
