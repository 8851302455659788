import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext } from "playwright-core";
import { launchChromium } from "./helpers/browser";
import { signInThroughMailbox } from "./helpers/mailbox-sign-in";
import { startServer, type RunningServer } from "./helpers/server";
import { seedCatalog } from "./helpers/seed-catalog";
import { PAGE_SERVERS } from "@/tests/helpers/page-fixture";

// What a person meets on the way through the pages when a form refuses what they typed: the refusal says what
// the other path (with or without JavaScript) says, and the page they were going to is not lost.
describe("journeys through refusals", () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer({}, { beforeStart: async (dir) => void (await seedCatalog(dir)) });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function withContext(javaScriptEnabled: boolean, run: (ctx: BrowserContext) => Promise<void>) {
    const ctx = await browser.newContext({ javaScriptEnabled });
    try {
      await run(ctx);
    } finally {
      await ctx.close();
    }
  }

  // next-auth sends a refused address back to the sign-in page with the callbackUrl made absolute
  // (http://host/watches?…); the page kept only paths, so the next try signed the reader in to /account instead
  it.each([true, false])("a refused sign-in address keeps the page the reader was going to (JavaScript %s)", async (js) => {
    await withContext(js, async (ctx) => {
      const page = await ctx.newPage();
      const watchPath = `/watches?server=${encodeURIComponent(PAGE_SERVERS.pass)}`;
      await page.goto(`${server.url}${watchPath}`);
      await page.waitForURL(/\/signin\?/);
      await page.getByLabel("E-mail address").fill("a@b");
      await page.getByRole("button", { name: "Send me a sign-in link" }).click();
      await page.waitForURL(/error=EmailSignin/);
      expect(await page.getByRole("alert").first().textContent()).toContain("could not be sent");
      expect(await page.locator('input[name="callbackUrl"]').inputValue()).toBe(watchPath);

      const email = `journey-${js}-${Date.now()}@example.test`;
      await signInThroughMailbox(page, server.url, email);
      await page.waitForURL((u) => u.pathname === "/watches");
      expect(await page.getByLabel("Server name (exact)").inputValue()).toBe(PAGE_SERVERS.pass);
    });
  });

  // the box sent a query over 200 characters to GET /v1/search and showed its 400 in zod's words ("q: Too big:
  // expected string to have <=200 characters"), while the same query without JavaScript got the page's sentence
  it("the search box refuses an over-long query in the words of the page without JavaScript, asking nothing", async () => {
    const q = "w".repeat(201);
    let without = "";
    await withContext(false, async (ctx) => {
      const page = await ctx.newPage();
      await page.goto(`${server.url}/?q=${q}`);
      without = (await page.getByTestId("search-error").textContent())!.trim();
    });
    expect(without).toBe("A search is at most 200 characters; this one has 201.");
    await withContext(true, async (ctx) => {
      const page = await ctx.newPage();
      const asked: string[] = [];
      page.on("request", (r) => void (new URL(r.url()).pathname === "/v1/search" && asked.push(r.url())));
      await page.goto(server.url);
      const box = page.getByLabel("Search servers by name, title or description");
      await box.fill(q);
      await box.press("Enter");
      await page.getByTestId("search-error").waitFor();
      expect((await page.getByTestId("search-error").textContent())!.trim()).toBe(without);
      await page.waitForTimeout(1000); // past the box's pause
      expect(asked).toEqual([]);
      // the address follows the query, so a reload reads the same line
      expect(new URL(page.url()).searchParams.get("q")).toBe(q);
    });
  });

  // with JavaScript the Audit button stayed disabled over a box of spaces and nothing said why; a file name over
  // 500 characters came back as the API's "400 invalid_request: filename: Too big: expected string to have <=500
  // characters." with or without JavaScript
  it("the audit form says why it is not sent, in the same words with and without JavaScript", async () => {
    await withContext(true, async (ctx) => {
      const page = await ctx.newPage();
      await page.goto(`${server.url}/audit`);
      const button = page.getByRole("button", { name: "Audit", exact: true });
      await page.getByLabel("Config file contents").fill("  \n  ");
      await expect.poll(() => button.isDisabled()).toBe(true);
      const why = page.locator(`#${await button.getAttribute("aria-describedby")}`);
      expect(await why.isVisible()).toBe(true);
      expect((await why.textContent())!.trim()).toBe("Paste a config file or choose one.");
      await page.getByLabel("Config file contents").fill('{"mcpServers":{}}');
      await expect.poll(() => button.isDisabled()).toBe(false);
      expect(await button.getAttribute("aria-describedby")).toBeNull();
    });
    // with JavaScript the button waits, the reason beside it; without, the form action answers with it
    const lines: string[] = [];
    for (const js of [true, false]) {
      await withContext(js, async (ctx) => {
        const page = await ctx.newPage();
        const asked: string[] = [];
        page.on("request", (r) => void (new URL(r.url()).pathname === "/v1/audit" && asked.push(r.url())));
        await page.goto(`${server.url}/audit`);
        await page.getByLabel("Config file contents").fill('{"mcpServers":{}}');
        await page.getByLabel("File name or path (optional)").fill("f".repeat(501));
        const button = page.getByRole("button", { name: "Audit", exact: true });
        if (js) {
          await expect.poll(() => button.isDisabled()).toBe(true);
          // the element the button names as its description, the attribute read again on each poll: once, in CI,
          // the id read right after the button turned disabled named no element for the 30 s that followed
          const described = () =>
            button.evaluate((b) => {
              const id = b.getAttribute("aria-describedby");
              return id ? (document.getElementById(id)?.textContent?.trim() ?? null) : null;
            });
          await expect.poll(described).not.toBeNull();
          lines.push((await described())!);
        } else {
          await button.click();
          await page.getByTestId("audit-error").waitFor();
          lines.push((await page.getByTestId("audit-error").textContent())!.trim());
        }
        expect(asked).toEqual([]);
      });
    }
    expect(lines).toEqual(["File name or path is at most 500 characters; this one has 501.", "File name or path is at most 500 characters; this one has 501."]);
  });
});
