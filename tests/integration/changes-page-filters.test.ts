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

/** The refusal line the page shows, as a person reads it (React escapes quotes and ampersands). */
function refusal(html: string): string | null {
  const m = html.match(/<p class="notice error" role="alert">([\s\S]*?)<\/p>/);
  return m ? m[1].replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&amp;/g, "&") : null;
}

// The page showed GET /v1/changes's Error message: "kind.0: kind must be one or more of …", "server_name: Too
// big: expected string to have <=300 characters", "before: not a cursor this feed issued (use next_cursor …)".
describe("the changes page's refusals", () => {
  it.each([
    [{ kind: "nope" }, "Kind “nope” is not a kind of change this feed has; choose one from the list."],
    [{ kind: "remote_down,nope" }, "Kind “remote_down,nope” is not a kind of change this feed has; choose one from the list."],
    [{ kind: "k".repeat(301) }, `Kind “${"k".repeat(80)}…” is not a kind of change this feed has; choose one from the list.`],
    [{ server_name: "s".repeat(301) }, "Server is at most 300 characters; this one has 301."],
    [{ before: "zzz" }, "This link to older changes is not one the page made; start again from the newest changes."],
    [{ before: "1".repeat(201) }, "This link to older changes is not one the page made; start again from the newest changes."],
  ])("says what is wrong with filter %# in a sentence naming it", async (params, message) => {
    expect(refusal(await render(params))).toBe(message);
  });
});

/** Each row's kind and its before and after as the page writes them (React escapes quotes and ampersands). */
function values(html: string): [string, string, string][] {
  const text = (s: string) => s.replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&amp;/g, "&");
  return [...html.matchAll(/data-kind="([^"]+)"[\s\S]*?<span data-testid="change-before">([\s\S]*?)<\/span> → <span data-testid="change-after">([\s\S]*?)<\/span>/g)].map(
    (m) => [m[1], text(m[2]), text(m[3])],
  );
}

// The rows showed the feed's JSON as it was: {"live":true} → {"live":false,"http_status":503}, null → {"version":…}.
describe("the changes page's before and after", () => {
  it("writes each side as fields a person reads: yes and no, lists joined, none for nothing", async () => {
    const rows = values(await render({ kind: "remote_down,health_change" }));
    expect(rows).toContainEqual(["remote_down", "live: yes", "live: no; HTTP status: 503"]);
    expect(rows).toContainEqual(["health_change", "health: unknown", "health: issues; problems: repo_gone"]);
    const fresh = values(await render({ kind: "server_new", server_name: "com.example/remote-only" }));
    // in the order the database keeps the fields (jsonb's)
    expect(fresh).toEqual([["server_new", "none", "remotes: https://mcp.example.com/mcp; version: 1.0.0; spec era: 2025-10-17; registry status: active"]]);
    expect(JSON.stringify(rows.concat(fresh))).not.toMatch(/\\"|\{|null/);
  });
});
