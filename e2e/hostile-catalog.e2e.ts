import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext } from "playwright-core";
import { launchChromium } from "./helpers/browser";
import { startServer, type RunningServer } from "./helpers/server";
import { openDatabase } from "@/lib/db/client";
import { migrateDatabase } from "@/lib/db/migrate";
import { ingestDump } from "@/lib/catalog/ingest-dump";

// Listings are published by anyone, and a dump can carry what the official registry would refuse: the pages
// must show such data as text, never as markup, script or a link that runs or opens something other than a
// web page. And a reader without JavaScript must get every page's text, the 404 of an unknown name included.
const HTML = `<script>alert(1)</script><img src=x onerror=alert(2)>"'&`;
const official = { "io.modelcontextprotocol.registry/official": { status: "active", isLatest: true, publishedAt: "2025-11-01T00:00:00Z", updatedAt: "2025-11-01T00:00:00Z" } };
const listing = (server: Record<string, unknown>) => ({ server: { version: "1.0.0", ...server }, _meta: official });
const HOSTILE = [
  listing({
    name: "io.github.evil/js",
    title: HTML,
    description: `${HTML} \u202Eevil\u202C\u200B`,
    repository: { url: "javascript:alert(document.domain)", source: "github" },
    websiteUrl: " JaVaScRiPt:alert('web')",
    remotes: [{ type: "streamable-http", url: "javascript:alert(5)" }],
  }),
  listing({
    name: "io.github.evil/data",
    title: "data URLs",
    repository: { url: "data:text/html,<script>alert(7)</script>", source: "github" },
    websiteUrl: "data:text/html,<script>alert(8)</script>",
    remotes: [{ type: "sse", url: "data:text/html;base64,PHNjcmlwdD5hbGVydCg2KTwvc2NyaXB0Pg==" }],
  }),
  listing({ name: 'io.github.evil/"><svg/onload=alert(1)>', title: "a name that is markup" }),
  // one word of 5,000 characters: a listing must not make every page that shows it wider than the screen
  listing({ name: "io.github.evil/long", title: `long${"A".repeat(5000)}`, description: `long${"B".repeat(5000)}` }),
];

describe("hostile catalog data on the web pages", () => {
  let server: RunningServer;
  let browser: Browser;
  let withJs: BrowserContext;
  let withoutJs: BrowserContext;
  const dialogs: string[] = [];

  beforeAll(async () => {
    server = await startServer(
      {},
      {
        beforeStart: async (dataDir) => {
          const handle = await openDatabase(`pglite:${path.join(dataDir, "pglite")}`);
          try {
            await migrateDatabase(handle);
            await ingestDump(handle.db, HOSTILE, "hostile");
          } finally {
            await handle.close();
          }
        },
      },
    );
    browser = await launchChromium();
    withJs = await browser.newContext();
    withoutJs = await browser.newContext({ javaScriptEnabled: false });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it.each(["io.github.evil/js", "io.github.evil/data", 'io.github.evil/"><svg/onload=alert(1)>'])(
    "the page of %s links no javascript: or data: URL and runs nothing",
    async (name) => {
      for (const context of [withJs, withoutJs]) {
        const page = await context.newPage();
        page.on("dialog", (d) => {
          dialogs.push(d.message());
          void d.dismiss();
        });
        const res = await page.goto(`${server.url}/servers/${name.split("/").map(encodeURIComponent).join("/")}`);
        expect(res!.status()).toBe(200);
        await expect(page.locator("h1").innerText()).resolves.toBe(name);
        const hrefs = await page.locator("a[href]").evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""));
        const bad = hrefs.filter((h) => !/^(https?:\/\/|\/|#)/i.test(h.trim()));
        expect(bad, `links on ${name}`).toEqual([]);
        expect(await page.locator("img[src='x']").count()).toBe(0);
        await page.close();
      }
      expect(dialogs).toEqual([]);
    },
  );

  it("shows the whole evidence card to a reader without JavaScript, not a loading state", async () => {
    const page = await withoutJs.newPage();
    await page.goto(`${server.url}/servers/io.github.evil/data`);
    // visible, not merely in the HTML: streamed content sits in a hidden <div> until a script moves it
    expect(await page.locator("h1").isVisible()).toBe(true);
    expect(await page.getByTestId("decision").first().isVisible()).toBe(true);
    expect(await page.getByTestId("loading").count()).toBe(0);
    await page.close();
  });

  it("keeps a page as wide as a phone when a listing's title and description are one endless word", async () => {
    const page = await withJs.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.url}/servers/io.github.evil/long`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.goto(server.url);
    await page.getByRole("searchbox").fill("long");
    await page.getByTestId("search-results").waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.close();
  });

  it("shows the hostile URLs as text, so a reader still sees what the listing claims", async () => {
    const page = await withoutJs.newPage();
    await page.goto(`${server.url}/servers/io.github.evil/data`);
    await expect(page.locator("[data-testid=unlinked-url]", { hasText: "data:text/html,<script>alert(7)</script>" }).count()).resolves.toBeGreaterThan(0);
    await page.close();
  });

  it("sends a CSP that keeps injected markup from rebasing links, loading plugins or posting forms elsewhere, and nosniff", async () => {
    for (const p of ["/", "/servers/io.github.evil/js", "/servers/io.github.nobody/nothing", "/signin", "/v1/health"]) {
      const res = await fetch(`${server.url}${p}`);
      expect(res.headers.get("x-content-type-options"), p).toBe("nosniff");
      const csp = res.headers.get("content-security-policy") ?? "";
      for (const directive of ["base-uri 'self'", "object-src 'none'", "form-action 'self'"]) expect(csp, p).toContain(directive);
    }
    // the badge keeps its own, stricter policy (an image that runs nothing)
    const badge = await fetch(`${server.url}/badge/io.github.evil/js.svg`);
    expect(badge.headers.get("content-security-policy")).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
  });

  it("answers an unknown name with a 404 whose text is in the HTML, for a reader without JavaScript", async () => {
    for (const context of [withoutJs, withJs]) {
      const page = await context.newPage();
      const res = await page.goto(`${server.url}/servers/io.github.nobody/nothing`);
      expect(res!.status()).toBe(404);
      expect(await page.locator("h1").allInnerTexts()).toEqual(["Server not in the catalog"]);
      // the site's own header and footer are there too
      await expect(page.locator("header.site a.brand").count()).resolves.toBe(1);
      await page.close();
    }
  });
});
