import { describe, expect, it } from "vitest";
import { badgeMarkdown } from "@/app/servers/[...name]/server-name";
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
