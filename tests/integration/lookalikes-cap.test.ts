import { beforeAll, describe, expect, it } from "vitest";
import * as React from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { Db } from "@/lib/db/client";
import { GET as lookalikesGet } from "@/app/v1/lookalikes/route";
import { ingestDump } from "@/lib/catalog/ingest-dump";
import { lookalikesResultSchema } from "@/lib/schemas/reports";
import { resetDb } from "../helpers/db";
import { keyedAccount, listing, request } from "../helpers/catalog-fixture";
import { mcpClients } from "../helpers/mcp-client";

// vitest compiles the page's JSX to React.createElement (Next's build uses the automatic runtime)
(globalThis as { React?: typeof React }).React = React;
process.env.SITE_URL = "http://localhost:3000";

// A squatted name: 101 other namespaces list the same server part. The card, the page, the REST function and the
// MCP tool carry the first 100 names and the full count; the page and the tool's summary used to list 100 under
// "101 other listed servers" without saying the list stops there.
const NAME = "io.github.acme/weather-mcp";
const OTHERS = Array.from({ length: 101 }, (_, i) => `io.github.squat${String(i).padStart(3, "0")}/${i % 2 ? "Weather_MCP" : "weather-mcp"}`);

const FORECAST = ["io.github.acme/forecast", "io.github.other/Forecast"];

let db: Db;
const mcp = mcpClients();
beforeAll(async () => {
  db = await resetDb();
  await ingestDump(db, [listing({ name: NAME }), ...[...OTHERS, ...FORECAST].map((name) => listing({ name }))], "squat", new Date(Date.now() - 86_400_000));
});

async function pageText(name: string): Promise<string> {
  const { default: ServerPage } = await import("@/app/servers/[...name]/page");
  const html = renderToStaticMarkup(await ServerPage({ params: Promise.resolve({ name: name.split("/").map(encodeURIComponent) }) }));
  return html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
}

describe("more than 100 lookalikes", () => {
  it("the page lists 100 and says only the first 100 are listed", async () => {
    const text = await pageText(NAME);
    expect(text).toContain("101 other listed servers have a name that reads the same");
    expect(text).toContain("Only the first 100 are listed here.");
    const html = renderToStaticMarkup(
      await (await import("@/app/servers/[...name]/page")).default({ params: Promise.resolve({ name: NAME.split("/") }) }),
    );
    const list = /<ul data-testid="lookalikes">(.*?)<\/ul>/s.exec(html)![1];
    expect(list.match(/<li>/g)).toHaveLength(100);
  });

  it("a page that lists every lookalike does not say the list stops", async () => {
    const text = await pageText(FORECAST[0]);
    expect(text).toContain("1 other listed server has a name that reads the same");
    expect(text).not.toContain("Only the first");
  });

  it("the REST function and the MCP tool give the full count, 100 names, and the tool's summary says they are the oldest 100", async () => {
    const { key } = await keyedAccount(db, { credits: 10 });
    const rest = lookalikesResultSchema.parse(await (await lookalikesGet(request(`/v1/lookalikes?name=${encodeURIComponent(NAME)}`, { key }))).json());
    expect(rest.count).toBe(101);
    expect(rest.lookalikes).toHaveLength(100);
    const client = await mcp.connect({ key });
    const out = (await client.callTool({ name: "catalog_lookalikes", arguments: { name: NAME } })) as { structuredContent?: unknown; content: { text: string }[] };
    expect(out.structuredContent).toEqual(rest);
    expect(out.content.map((c) => c.text).join("\n")).toMatch(/^101 lookalike\(s\) of io\.github\.acme\/weather-mcp \(the 100 oldest shown\): /);
  });
});
