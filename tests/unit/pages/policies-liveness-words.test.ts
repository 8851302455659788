import { describe, expect, it } from "vitest";
import * as React from "react";
import { renderToStaticMarkup } from "react-dom/server";

// vitest compiles the page's JSX to React.createElement (Next's build uses the automatic runtime)
(globalThis as { React?: typeof React }).React = React;

// The engine counts a live observation exactly 48 h old as fresh (docs/decision-engine.md); the policies page
// must not tell a reader that only one under 48 h will do.
describe("the policies page's words for require_fresh_live", () => {
  it("say what the engine does at exactly 48 h: at most 48 h old is fresh", async () => {
    const { default: PoliciesPage } = await import("@/app/policies/page");
    const html = renderToStaticMarkup(React.createElement(PoliciesPage));
    expect(html).toContain("a live observation at most 48 h old required");
    expect(html).not.toContain("under 48 h");
  });
});
