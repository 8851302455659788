import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "./helpers/browser";
import { startServer, type RunningServer } from "./helpers/server";
import { seedCatalog } from "./helpers/seed-catalog";
import { PAGE_SERVERS } from "@/tests/helpers/page-fixture";

// The home page's search box on a slow network: an answer that arrives after the reader went back to a query the
// box already knew must not replace what the box shows for it.
describe("the search box", () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startServer({}, { beforeStart: async (dir) => void (await seedCatalog(dir)) });
    browser = await launchChromium();
    page = await browser.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("shows the results of the query in the box, not of one typed before it that answered late", async () => {
    let lateAnswered = false;
    await page.route("**/v1/search?*", async (route) => {
      if (new URL(route.request().url()).searchParams.get("q") === "weather") {
        await new Promise((r) => setTimeout(r, 1500));
        lateAnswered = true;
      }
      await route.continue().catch(() => undefined); // the box may have cancelled it meanwhile
    });
    await page.goto(server.url);
    const box = page.getByLabel("Search servers by name, title or description");
    const results = page.getByTestId("search-result");
    await box.fill("remote");
    await results.first().waitFor();
    expect(await results.allInnerTexts()).toEqual([expect.stringContaining(PAGE_SERVERS.remote)]);
    // "weather" is asked (and answers slowly); the reader goes back to "remote", which the box answers from memory
    await box.fill("weather");
    await page.waitForRequest((r) => new URL(r.url()).searchParams.get("q") === "weather");
    await box.fill("remote");
    await expect.poll(() => lateAnswered, { timeout: 5000 }).toBe(true);
    await page.waitForTimeout(300);
    expect(await box.inputValue()).toBe("remote");
    expect(new URL(page.url()).searchParams.get("q")).toBe("remote");
    expect(await results.allInnerTexts()).toEqual([expect.stringContaining(PAGE_SERVERS.remote)]);
    expect(await page.getByText(/results? for “weather”/).count()).toBe(0);
  });
});
