import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchChromium, screenshotDir } from "./helpers/browser";
import { startServer, type RunningServer } from "./helpers/server";

// The config audit page as a user meets it: reach it from the nav, paste a config, submit with the keyboard,
// read the verdict table, download it as text; a broken file shows where it breaks; a phone sees cards.
describe("config audit page in a browser", () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  const shots = screenshotDir();
  const shot = (name: string) => page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
  const CONFIG = JSON.stringify(
    {
      mcpServers: {
        "local-script": { command: "node", args: ["./server.js"] },
        "loopback": { url: "http://127.0.0.1:9000/mcp" },
        "github": { command: "npx", args: ["-y", "@modelcontextprotocol/server-github"] },
      },
    },
    null,
    2,
  );

  beforeAll(async () => {
    server = await startServer();
    browser = await launchChromium();
    page = await browser.newPage({ acceptDownloads: true });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("is linked from the site navigation", async () => {
    await page.goto(server.url);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Config audit" }).click();
    await page.waitForURL(/\/audit$/);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Config audit");
  });

  it("audits a pasted config submitted from the keyboard and shows one row per entry", async () => {
    await page.getByLabel("Config file contents").fill(CONFIG);
    await page.getByLabel("Strict: REVIEW and UNKNOWN fail too").check();
    await page.getByRole("button", { name: "Audit" }).focus();
    await page.keyboard.press("Enter");
    await page.getByTestId("audit-summary").waitFor();
    const summary = await page.getByTestId("audit-summary").textContent();
    // the e2e server starts with an empty catalog: every entry is UNKNOWN, and strict makes that exit 2
    expect(summary).toContain("3 entries: 0 PASS, 0 REVIEW, 0 BLOCK, 3 UNKNOWN");
    expect(summary).toContain("exit code 2");
    const rows = page.getByRole("table").getByRole("row");
    expect(await rows.count()).toBe(4);
    expect(await rows.nth(1).textContent()).toContain("node runs the local file ./server.js");
    expect(await page.getByRole("heading", { name: "Verdicts" }).evaluate((h) => h === document.activeElement)).toBe(true);
    await shot("audit-01-verdicts");
  });

  it("downloads the verdicts as VERDICT<TAB>key<TAB>server<TAB>reason lines", async () => {
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download as text" }).click()]);
    const file = await download.path();
    const lines = fs.readFileSync(file!, "utf8").trimEnd().split("\n");
    expect(lines.map((l) => l.split("\t").slice(0, 3))).toEqual([
      ["UNKNOWN", "local-script", "-"],
      ["UNKNOWN", "loopback", "-"],
      ["UNKNOWN", "github", "-"],
    ]);
  });

  it("shows where a broken file breaks", async () => {
    await page.getByLabel("Config file contents").fill('{\n  "mcpServers": {\n    "a": { "command": "npx" \n  }\n}');
    await page.getByRole("button", { name: "Audit" }).click();
    const alert = page.getByTestId("audit-error");
    await alert.waitFor();
    expect(await alert.getAttribute("role")).toBe("alert");
    // a sentence: the page put "400 invalid_request: " in front of the API's message
    expect(await alert.textContent()).toMatch(/^The config file cannot be read: .*close brace expected \(line 5, column 2\)\.$/);
  });

  it("lays entries out as cards on a phone", async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.getByLabel("Config file contents").fill(CONFIG);
    await page.getByRole("button", { name: "Audit" }).click();
    await page.getByTestId("audit-summary").waitFor();
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth).toBeLessThanOrEqual(375);
    await shot("audit-02-phone");
  });
});
