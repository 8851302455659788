import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchChromium } from "./helpers/browser";
import { startServer, type RunningServer } from "./helpers/server";
import { seedCatalog } from "./helpers/seed-catalog";
import { verifiedWords } from "@/lib/cards/verified-words";
import { PAGE_SERVERS } from "@/tests/helpers/page-fixture";

// The pages' forms for a reader without JavaScript (progressive enhancement): home search, sign-in and the
// config audit, each sent as a plain HTML form and answered by a server-rendered page, metered as the API meters
// the same caller. The browser and the test's own HTTP calls come from the same address (127.0.0.1), so they
// share one anonymous allowance: what the page spends shows in the API's quota headers.
describe("the pages' forms without JavaScript", () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    // the test makes more than 30 metered requests in a minute; the burst window is not what it checks
    server = await startServer({ BURST_LIMIT_PER_ANONYMOUS_IP: "1000" }, { beforeStart: async (dir) => void (await seedCatalog(dir)) });
    browser = await launchChromium();
    context = await browser.newContext({ javaScriptEnabled: false });
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** Today's anonymous look-ups left to this address: read from a search the API refuses (400), which spends none. */
  async function lookupsLeft(): Promise<number> {
    const res = await fetch(`${server.url}/v1/search?q=x`);
    expect(res.status).toBe(400);
    const left = /"daily";r=(\d+)/.exec(res.headers.get("ratelimit") ?? "");
    expect(left, res.headers.get("ratelimit") ?? "no ratelimit header").not.toBeNull();
    return Number(left![1]);
  }

  async function searchOnPage(q: string) {
    await page.goto(server.url);
    await page.getByLabel("Search servers by name, title or description").fill(q);
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.waitForURL((u) => u.searchParams.has("q"));
  }

  it("home search: the form finds an exact server, shows what the API answers and links to its page", async () => {
    expect(await lookupsLeft()).toBe(10);
    await searchOnPage(PAGE_SERVERS.pass);
    expect(new URL(page.url()).searchParams.get("q")).toBe(PAGE_SERVERS.pass);
    expect(await page.getByLabel("Search servers by name, title or description").inputValue()).toBe(PAGE_SERVERS.pass);
    const results = page.getByTestId("search-result");
    // the same search through the API, from the same address: a repeat of the page's, so free
    const api = await (await fetch(`${server.url}/v1/search?q=${encodeURIComponent(PAGE_SERVERS.pass)}&limit=10`)).json();
    expect(await results.getByRole("link").allTextContents()).toEqual(api.results.map((r: { server_name: string }) => r.server_name));
    const first = results.first();
    expect(await first.getByRole("link").textContent()).toBe(PAGE_SERVERS.pass);
    expect(await first.getByRole("link").getAttribute("href")).toBe(`/servers/${PAGE_SERVERS.pass}`);
    const top = api.results[0];
    expect(await first.textContent()).toContain(`${top.title}health ${top.health} · trust ${top.trust_score}/100 · verified ${verifiedWords(top)}`);
    // the page spent one look-up of the address's ten, as GET /v1/search would have; the API's repeat none
    expect(await lookupsLeft()).toBe(9);

    await first.getByRole("link").click();
    await page.waitForURL(`${server.url}/servers/${PAGE_SERVERS.pass}`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(PAGE_SERVERS.pass);
  });

  it("a search spends a look-up as the API does: a repeat is free, a HEAD or a prefetch asks nothing", async () => {
    const before = await lookupsLeft();
    await page.goto(`${server.url}/?q=${encodeURIComponent(PAGE_SERVERS.pass)}`);
    expect(await page.getByTestId("search-result").count()).toBeGreaterThan(0);
    expect(await lookupsLeft()).toBe(before);

    const head = await fetch(`${server.url}/?q=acme`, { method: "HEAD" });
    expect(head.status).toBe(200);
    for (const hint of [["sec-purpose", "prefetch"], ["purpose", "prefetch"]] as [string, string][]) {
      const prefetch = await fetch(`${server.url}/?q=acme`, { headers: [hint] });
      expect(prefetch.status).toBe(200);
      expect(await prefetch.text()).not.toContain('data-testid="search-result"');
    }
    expect(await lookupsLeft()).toBe(before);

    await searchOnPage("acme");
    expect(await page.getByTestId("search-result").count()).toBeGreaterThan(0);
    expect(await lookupsLeft()).toBe(before - 1);
    // the API counts the page's query as its own: asked again the same day, it is free
    expect((await fetch(`${server.url}/v1/search?q=ACME&limit=10`)).status).toBe(200);
    expect(await lookupsLeft()).toBe(before - 1);
  });

  it("a query of one character, or of more than 200, gets a message and spends nothing", async () => {
    const before = await lookupsLeft();
    await searchOnPage("w");
    expect(await page.getByTestId("search-error").textContent()).toBe("Type at least 2 characters to search.");
    expect(await page.getByTestId("search-result").count()).toBe(0);
    await page.goto(`${server.url}/?q=${"x".repeat(201)}`);
    expect(await page.getByTestId("search-error").textContent()).toBe("A search is at most 200 characters; this one has 201.");
    expect(await lookupsLeft()).toBe(before);
  });

  it("when the address's look-ups are used up, the page says so with the wait, as the API refuses", async () => {
    for (let left = await lookupsLeft(), i = 0; left > 0; left--, i++) {
      const res = await fetch(`${server.url}/?q=${encodeURIComponent(`spent ${i}`)}`);
      expect(res.status).toBe(200);
    }
    expect(await lookupsLeft()).toBe(0);
    await searchOnPage("weather");
    const refusal = await page.getByTestId("search-error").textContent();
    expect(refusal).toContain("without an API key a client IP gets 10 distinct lookups per UTC day");
    expect(refusal).toMatch(/Try again in about \d+ (h|min|s), or sign in and use an API key\.$/);
    expect((await fetch(`${server.url}/v1/search?q=weather`)).status).toBe(429);
  });

  it("sign-in: the form posts to next-auth, the check-email page follows, the dev mailbox has the link, and it signs in", async () => {
    const email = `nojs-${Date.now()}@example.test`;
    await page.goto(`${server.url}/signin`);
    await page.getByLabel("E-mail address").fill(email);
    await page.getByRole("button", { name: "Send me a sign-in link" }).click();
    await page.waitForURL(/\/signin\/check-email/);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Check your e-mail");

    await page.goto(`${server.url}/dev/mailbox`);
    const mail = page.getByTestId("mail").filter({ hasText: email });
    expect(await mail.count()).toBe(1);
    const link = mail.getByTestId("mail-link");
    expect(await link.getAttribute("href")).toMatch(/\/api\/auth\/callback\/email\?/);
    await link.click();
    await page.waitForURL(/\/account$/);
    expect(await page.getByTestId("account-email").textContent()).toBe(email);
  });

  it("config audit: the form is sent, the page shows the verdicts, metered as POST /v1/audit from the same address", async () => {
    // signed in by the test above; the audit is keyless all the same (no key typed into the form)
    const config = JSON.stringify({ mcpServers: { weather: { command: "npx", args: ["-y", "@acme/mcp-weather@1.4.2"] }, local: { command: "node", args: ["server.js"] } } }, null, 2);
    await page.goto(`${server.url}/audit`);
    await page.getByLabel("Config file contents").fill(config);
    await page.getByRole("button", { name: "Audit" }).click();
    const summary = page.getByTestId("audit-summary");
    expect(await summary.textContent()).toContain("2 entries: 1 PASS, 0 REVIEW, 0 BLOCK, 1 UNKNOWN");
    expect(await page.getByRole("row").filter({ hasText: PAGE_SERVERS.pass }).textContent()).toContain("PASS");
    expect(await page.getByLabel("Config file contents").inputValue()).toBe(config);

    // the page's audit was this address's one keyless config today: the same config again is free, another is refused
    const same = await fetch(`${server.url}/v1/audit`, { method: "POST", body: config });
    expect(same.status).toBe(200);
    expect((await same.json()).counts).toMatchObject({ total: 2, PASS: 1, UNKNOWN: 1 });
    expect((await fetch(`${server.url}/v1/audit`, { method: "POST", body: `${config}\n` })).status).toBe(429);

    // the same file chosen instead of pasted is the same config (a repeat); another config is refused with the wait
    await page.goto(`${server.url}/audit`);
    await page.getByLabel("Choose a file").setInputFiles({ name: "mcp.json", mimeType: "application/json", buffer: Buffer.from(config) });
    await page.getByRole("button", { name: "Audit" }).click();
    expect(await page.getByTestId("audit-summary").textContent()).toContain("2 entries: 1 PASS, 0 REVIEW, 0 BLOCK, 1 UNKNOWN");
    await page.getByLabel("Config file contents").fill('{"mcpServers": {}}');
    await page.getByRole("button", { name: "Audit" }).click();
    expect(await page.getByTestId("audit-error").textContent()).toMatch(/^Without an API key a client IP gets 1 distinct audit per UTC day.*Try again in about \d+ (h|min|s), or use an API key\.$/);
  });

  it("config audit: a file too large for the form gets the API's 413 line on the page, not a bare error page", async () => {
    // over 256 KiB (the API's 413, read by the server action) and over the server action's 1 MB (refused before it is read)
    for (const size of [300 * 1024, 2 * 1024 * 1024]) {
      await page.goto(`${server.url}/audit`);
      await page.getByLabel("Choose a file").setInputFiles({ name: "big.json", mimeType: "application/json", buffer: Buffer.alloc(size, " ") });
      await page.getByRole("button", { name: "Audit" }).click();
      await page.waitForLoadState();
      expect(await page.getByTestId("audit-error").textContent(), `${size} bytes`).toMatch(/^The config file is over 256 KiB; /);
      expect(await page.getByRole("button", { name: "Audit" }).isVisible()).toBe(true);
    }
  });
});
