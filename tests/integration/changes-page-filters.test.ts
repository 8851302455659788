import { beforeAll, describe, expect, it } from "vitest";
import * as React from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { resetDb } from "../helpers/db";
import { seedPageFixture } from "../helpers/page-fixture";

// vitest compiles the page's JSX to React.createElement (Next's build uses the automatic runtime)
(globalThis as { React?: typeof React }).React = React;

async function render(searchParams: Record<string, string | string[] | undefined>): Promise<string> {
  const { default: ChangesPage } = await import("@/app/changes/page");
  return renderToStaticMarkup(await ChangesPage({ searchParams: Promise.resolve(searchParams) }));
}

/** The kind the filter form shows as chosen (what its next submit sends), and the kinds of the rows listed. */
function shown(html: string) {
  const select = html.match(/<select id="kind"[^>]*>([\s\S]*?)<\/select>/)![1];
  const options = [...select.matchAll(/<option value="([^"]*)"( selected="")?/g)];
  const selected = options.find((o) => o[2]) ?? options[0]; // a browser shows the first option when none is selected
  return { kind: selected[1], rows: [...html.matchAll(/data-kind="([^"]+)"/g)].map((m) => m[1]) };
}

beforeAll(async () => {
  await seedPageFixture(await resetDb());
});

// GET /v1/changes takes `kind` as one kind or a comma-separated list, and the page passes it on as given; its
// form offered single kinds only, so a list showed "every kind" over rows of those kinds alone, and the next
// Filter (a server name typed in) sent kind="" and dropped the filter without a word.
describe("the changes page's kind filter", () => {
  it("shows the kind it filters by as chosen, a single one", async () => {
    const page = shown(await render({ kind: "remote_down" }));
    expect(page.rows).toEqual(["remote_down"]);
    expect(page.kind).toBe("remote_down");
  });

  it("shows a comma-separated list of kinds as chosen, not every kind", async () => {
    const page = shown(await render({ kind: "remote_down,health_change" }));
    expect(new Set(page.rows)).toEqual(new Set(["remote_down", "health_change"]));
    expect(page.kind).toBe("remote_down,health_change");
  });

  it("shows every kind with no filter, and a refused kind as it was given, next to the refusal", async () => {
    expect(shown(await render({})).kind).toBe("");
    const html = await render({ kind: "nope" });
    expect(html).toContain('role="alert"');
    expect(shown(html)).toEqual({ kind: "nope", rows: [] });
  });
});
