import { describe, expect, it } from "vitest";
import * as React from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { BADGE_STYLES } from "@/lib/services/render-badge";

// the page's JSX is compiled with the classic runtime here (vitest, not Next.js): it needs React in scope
Object.assign(globalThis, { React });
// vitest sets BASE_URL=/ (Vite's base path), which siteUrl() would otherwise read
process.env.SITE_URL = "http://localhost:3000";

// The contract lists GET {site_url}/badge/<server_name>.svg among the endpoints; /docs, the page that documents
// them, never named it, so a maintainer embedding a badge found neither the address nor its show and style.
describe("/docs", () => {
  it("documents the badge: its address, what it draws, its parameters and its 404", async () => {
    const { default: DocsPage } = await import("@/app/docs/page");
    const html = renderToStaticMarkup(await DocsPage());
    const section = html.slice(html.indexOf('id="badge"'));
    expect(section).toContain("http://localhost:3000/badge/&lt;server_name&gt;.svg");
    expect(section).toContain("baseline@1");
    expect(section).toContain("show=health");
    for (const style of BADGE_STYLES) expect(section, style).toContain(`<code>${style}</code>`);
    expect(section).toContain("404");
    expect(html).toContain('href="#badge"');
  });
});
