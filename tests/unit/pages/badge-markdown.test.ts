import { describe, expect, it } from "vitest";
import { badgeMarkdown, META_DESCRIPTION_MAX, metaDescription } from "@/app/servers/[...name]/server-name";
import type { HealthCard } from "@/lib/schemas/health-card";

const card = (name: string) => {
  const path = name.split("/").map(encodeURIComponent).join("/");
  return { links: { badge: `https://site.example/badge/${path}.svg`, page: `https://site.example/servers/${path}` } } as HealthCard;
};

// The README snippet a maintainer copies from the server page. A dump may carry names the official registry
// refuses, with parentheses or brackets, which encodeURIComponent leaves as they are: a ")" would end the
// Markdown link early, so the image and the link would point at another path.
describe("badge Markdown", () => {
  it("is the badge image linking to the page", () => {
    expect(badgeMarkdown(card("io.github.acme/weather"))).toBe(
      "[![mcp preflight](https://site.example/badge/io.github.acme/weather.svg)](https://site.example/servers/io.github.acme/weather)",
    );
  });

  it("keeps a name's parentheses inside the link targets", () => {
    const md = badgeMarkdown(card("io.github.evil/a)(b"));
    const m = md.match(/^\[!\[mcp preflight\]\(([^()\s]+)\)\]\(([^()\s]+)\)$/);
    expect(m, md).not.toBeNull();
    expect(decodeURIComponent(new URL(m![1]).pathname)).toBe("/badge/io.github.evil/a)(b.svg");
    expect(decodeURIComponent(new URL(m![2]).pathname)).toBe("/servers/io.github.evil/a)(b");
  });
});

// The page head carries the description three times (description, og:description, twitter:description); a dump's
// listing description has no length limit, and a 10 KB one made 30 KB of head that every preview cuts anyway.
describe("the server page's meta description", () => {
  const card = (description: string | null) => ({ trust_score: 42, health: "healthy" as const, description });

  it("is the baseline decision, then the listing's description", () => {
    expect(metaDescription("PASS", card("Forecasts"))).toBe("PASS under baseline@1, trust score 42/100, health healthy. Forecasts");
    expect(metaDescription("BLOCK", card(null))).toBe("BLOCK under baseline@1, trust score 42/100, health healthy.");
  });

  it("is cut with an ellipsis when the description is long, never by half a character", () => {
    const d = metaDescription("REVIEW", card(`${"x".repeat(200)}${"😀".repeat(10_000)}`));
    expect(Array.from(d)).toHaveLength(META_DESCRIPTION_MAX);
    expect(d.startsWith("REVIEW under baseline@1")).toBe(true);
    expect(d.endsWith("😀…")).toBe(true);
  });
});
