import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchChromium, screenshotDir } from "./helpers/browser";
import { signInThroughMailbox } from "./helpers/mailbox-sign-in";
import { startServer, type RunningServer } from "./helpers/server";
import { seedCatalog } from "./helpers/seed-catalog";
import { PAGE_SERVERS } from "@/tests/helpers/page-fixture";

// The web pages against the real server on a seeded catalog: the journeys a person takes (search → card →
// badge; paste a config → verdicts; sign in → key → watch → delete), the server page against the API for the
// same names, axe-core on every page, and a screenshot of each page on a desktop and at 390 px.
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

describe("web pages in a browser", () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let apiKey = "";
  const shots = screenshotDir();
  const axeReport: Record<string, { critical: number; serious: number; moderate: number; minor: number; ids: string[] }> = {};

  /** Screenshots at desktop and phone width; at 390 px nothing may be wider than the screen. */
  async function shoot(name: string) {
    await page.screenshot({ path: path.join(shots, `pages-${name}.png`), fullPage: true });
    await page.setViewportSize(PHONE);
    const overflow = await page.evaluate(() => {
      // the innermost elements that stick out, to name them when the check fails
      const wide = [...document.querySelectorAll<HTMLElement>("body *")]
        .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1 && ![...e.children].some((c) => c.getBoundingClientRect().right > window.innerWidth + 1))
        .slice(0, 5)
        .map((e) => `${e.tagName.toLowerCase()}.${e.className}: ${e.textContent?.slice(0, 40)}`);
      return { width: document.documentElement.scrollWidth, wide };
    });
    await page.screenshot({ path: path.join(shots, `pages-${name}-phone.png`), fullPage: true });
    await page.setViewportSize(DESKTOP);
    expect(overflow.width, `${name} is wider than a 390 px phone: ${overflow.wide.join(" | ")}`).toBeLessThanOrEqual(PHONE.width);
  }

  /** axe-core on the page as it is now: no critical violation; the rest is reported. */
  async function axe(name: string) {
    await page.addScriptTag({ content: AXE_SOURCE });
    const violations = (await page.evaluate(async () => {
      const r = await (window as unknown as { axe: { run: (ctx: Document, o: unknown) => Promise<{ violations: unknown[] }> } }).axe.run(document, {
        resultTypes: ["violations"],
      });
      return r.violations;
    })) as AxeViolation[];
    const count = (impact: string) => violations.filter((v) => v.impact === impact).length;
    axeReport[name] = { critical: count("critical"), serious: count("serious"), moderate: count("moderate"), minor: count("minor"), ids: violations.map((v) => `${v.impact}:${v.id}`) };
    const critical = violations.filter((v) => v.impact === "critical").map((v) => `${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
    expect(critical, `critical axe violations on ${name}`).toEqual([]);
  }

  async function visit(pathname: string, name: string) {
    const res = await page.goto(`${server.url}${pathname}`);
    expect(res?.status(), `${pathname} status`).toBe(200);
    await axe(name);
    await shoot(name);
  }

  const api = async (pathname: string, init: RequestInit = {}) => {
    const res = await fetch(`${server.url}${pathname}`, { ...init, headers: { "x-api-key": apiKey, "content-type": "application/json", ...init.headers } });
    expect(res.status, `${init.method ?? "GET"} ${pathname}`).toBe(200);
    return res.json();
  };

  beforeAll(async () => {
    server = await startServer({}, { beforeStart: async (dir) => void (apiKey = (await seedCatalog(dir)).key) });
    browser = await launchChromium();
    context = await browser.newContext({ viewport: DESKTOP });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
    page = await context.newPage();
  });
  afterAll(async () => {
    fs.writeFileSync(path.join(shots, "pages-axe.json"), `${JSON.stringify(axeReport, null, 2)}\n`);
    await browser?.close();
    await server?.stop();
  });

  it("home: what the service is and is not, headline stats from GET /v1/stats", async () => {
    await visit("/", "home");
    expect(await page.getByRole("main").textContent()).toContain("a PASS is not a security finding");
    const stats = await (await fetch(`${server.url}/v1/stats`)).json();
    expect(await page.getByTestId("stat-listed").textContent()).toBe(String(stats.servers.listed));
    expect(await page.getByTestId("stat-healthy").textContent()).toBe(String(stats.health.healthy));
    expect(await page.getByTestId("stat-verified").textContent()).toBe(String(stats.verified));
    expect(await page.getByTestId("stat-verified-unknown").textContent()).toBe(String(stats.verified_unknown));
    expect(stats.servers.listed).toBe(4);
    // no page may be framed by another site (the account and watch forms least of all)
    for (const p of ["/", "/account", "/watches"]) expect((await fetch(`${server.url}${p}`, { redirect: "manual" })).headers.get("x-frame-options"), p).toBe("DENY");
    // the feed and the API docs are whole in the HTML, for readers without JavaScript (no loading state to swap)
    for (const p of ["/docs", "/changes"]) {
      const html = await (await fetch(`${server.url}${p}`)).text();
      expect(html, p).not.toContain('data-testid="loading"');
      expect(html, p).not.toMatch(/<div hidden[^>]*id="S:0"/);
    }
  });

  it("the skip link is the first stop of the keyboard and moves focus to the content", async () => {
    await page.goto(server.url);
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe("Skip to content");
    await page.keyboard.press("Enter");
    // a fragment navigation reaches page.url() through an event that can arrive after the key press returns
    // (CI once read the URL first and saw no hash): wait for it, as a reader's browser would show it
    await page.waitForURL((u) => u.hash === "#main", { timeout: 5000 });
    expect(new URL(page.url()).hash).toBe("#main");
  });

  it("search as you type → open a card → copy the badge Markdown", async () => {
    await page.goto(server.url);
    const box = page.getByLabel("Search servers by name, title or description");
    await box.pressSequentially("weath", { delay: 40 });
    const results = page.getByTestId("search-result");
    await results.first().waitFor();
    expect(await results.count()).toBe(2);
    // the address bar follows the query, so a reload or a shared link asks it again
    expect(new URL(page.url()).searchParams.get("q")).toBe("weath");
    await axe("home-search-results");
    await shoot("home-search-results");
    await results.filter({ hasText: PAGE_SERVERS.pass }).getByRole("link").click();
    await page.waitForURL(`${server.url}/servers/${PAGE_SERVERS.pass}`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(PAGE_SERVERS.pass);

    const markdown = `[![mcp preflight](${server.url}/badge/${PAGE_SERVERS.pass}.svg)](${server.url}/servers/${PAGE_SERVERS.pass})`;
    expect(await page.getByTestId("badge-markdown").inputValue()).toBe(markdown);
    await page.getByRole("button", { name: "Copy badge Markdown" }).click();
    await expect.poll(() => page.getByTestId("copy-status").textContent()).toBe("Copied.");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(markdown);
    const badge = page.getByRole("img", { name: `mcp preflight badge of ${PAGE_SERVERS.pass}` });
    await expect.poll(() => badge.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  });

  it("a page opened at /?q= shows the results the server found, and the box asks only what is typed next", async () => {
    const asked: string[] = [];
    const onRequest = (r: { url(): string }) => {
      const url = new URL(r.url());
      if (url.pathname === "/v1/search") asked.push(url.searchParams.get("q")!);
    };
    page.on("request", onRequest);
    try {
      await page.goto(`${server.url}/?q=weath`);
      const box = page.getByLabel("Search servers by name, title or description");
      expect(await box.inputValue()).toBe("weath");
      expect(await page.getByTestId("search-result").count()).toBe(2);
      await page.waitForTimeout(1000); // past the box's 450 ms pause
      expect(asked).toEqual([]);
      await box.press("End");
      await box.pressSequentially("er", { delay: 40 });
      await expect.poll(() => asked).toEqual(["weather"]);
      await page.waitForURL((u) => u.searchParams.get("q") === "weather");
      // the box renders the answer after it arrives; the URL follows the typing, not the answer
      await expect.poll(() => page.getByTestId("search-result").count()).toBe(2);
    } finally {
      page.off("request", onRequest);
    }
  });

  it.each(Object.values(PAGE_SERVERS))("the page of %s shows what GET /v1/server and POST /v1/preflight answer", async (name) => {
    await page.goto(`${server.url}/servers/${name}`);
    const shown = await page.evaluate(() => {
      const all = (sel: string) => [...document.querySelectorAll<HTMLElement>(`[data-testid="${sel}"]`)];
      const text = (sel: string) => document.querySelector(`[data-testid="${sel}"]`)?.textContent ?? null;
      return {
        health: text("health"),
        verified: text("verified"),
        trust: text("trust-score"),
        problems: all("health-problem").map((e) => e.textContent),
        pillars: all("pillar").map((e) => [e.dataset.pillar, Number(e.dataset.points), Number(e.dataset.max)]),
        factors: all("factor").map((e) => [e.dataset.factor, Number(e.dataset.points)]),
        decisions: all("decision").map((e) => ({ policy: e.dataset.policy, decision: e.dataset.decision, facts: e.dataset.factsDigest })),
        reasons: all("reasons").map((ol) => ({
          policy: ol.dataset.policy,
          reasons: [...ol.querySelectorAll<HTMLElement>('[data-testid="reason"]')].map((li) => [li.dataset.code, li.dataset.result]),
        })),
      };
    });
    const card = await api(`/v1/server?name=${encodeURIComponent(name)}`);
    expect(shown.health).toBe(card.health);
    expect(shown.verified).toBe(card.verified_status === "verified" ? "yes" : card.verified_status === "unknown" ? "not yet known" : "no");
    expect(shown.trust).toBe(String(card.trust_score));
    expect(shown.problems).toEqual(card.health_problems);
    expect(shown.pillars).toEqual(card.trust_pillars.map((p: { pillar: string; points: number; max: number }) => [p.pillar, p.points, p.max]));
    expect(new Map(shown.factors as [string, number][])).toEqual(new Map(card.trust_factors.map((f: { factor: string; points: number }) => [f.factor, f.points])));
    for (const policy of ["builtin:baseline", "builtin:first-party", "builtin:strict"]) {
      const result = await api("/v1/preflight", { method: "POST", body: JSON.stringify({ server_name: name, policy_id: policy }) });
      expect(shown.decisions.find((d) => d.policy === policy)).toEqual({ policy, decision: result.decision, facts: result.facts_digest });
      expect(shown.reasons.find((r) => r.policy === policy)?.reasons).toEqual(result.reasons.map((r: { code: string; result: string }) => [r.code, r.result]));
    }
  });

  it("every section of the server page, with an Open Graph image made by @vercel/og", async () => {
    await visit(`/servers/${PAGE_SERVERS.pass}`, "server-pass");
    for (const heading of ["Decisions", "Trust score: ", "Health", "Repository, packages and remotes", "Lookalikes", "Recent changes", "Badge"]) {
      expect(await page.getByRole("heading", { level: 2, name: new RegExp(`^${heading}`) }).count(), heading).toBe(1);
    }
    expect(await page.getByTestId("lookalikes").getByRole("link").textContent()).toBe(PAGE_SERVERS.review);
    expect(await page.getByTestId("server-changes").getByRole("row").count()).toBe(3);
    expect(await page.getByRole("link", { name: "@acme/mcp-weather" }).getAttribute("href")).toMatch(/^https:\/\/www\.npmjs\.com\/package\/@acme\/mcp-weather/);

    const og = await page.locator('meta[property="og:image"]').getAttribute("content");
    expect(og).toBe(`${server.url}/og/${PAGE_SERVERS.pass}.png`);
    const res = await fetch(og!);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    const png = Buffer.from(await res.arrayBuffer());
    expect(png.subarray(1, 4).toString()).toBe("PNG");
    expect(png.readUInt32BE(16)).toBe(1200);
    expect(png.readUInt32BE(20)).toBe(630);
    fs.writeFileSync(path.join(shots, "pages-og-image.png"), png);

    await visit(`/servers/${PAGE_SERVERS.block}`, "server-block");
    expect(await page.getByTestId("health-problem").textContent()).toBe("repo_gone");
  });

  it("an unknown server name is a 404 page that points to search", async () => {
    const res = await page.goto(`${server.url}/servers/io.github.nobody/nothing`);
    expect(res?.status()).toBe(404);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Server not in the catalog");
    await axe("server-not-found");
    expect((await fetch(`${server.url}/og/io.github.nobody/nothing.png`)).status).toBe(404);
  });

  it("policies: the three policies and the ruleset of GET /v1/policies", async () => {
    await visit("/policies", "policies");
    const catalog = await (await fetch(`${server.url}/v1/policies`)).json();
    const header = await page.getByTestId("policies").locator("thead th").allTextContents();
    expect(header.slice(1).map((h) => h.split("builtin:")[0])).toEqual(catalog.policies.map((p: { name: string }) => p.name));
    expect(await page.getByTestId("ruleset").locator("tbody tr").count()).toBe(catalog.ruleset.rules.length);
    for (const digest of Object.values(catalog.policy_digests)) expect(await page.getByText(digest as string).count()).toBe(1);
    // each decision's fixed meaning, word for word as a result states it
    const result = await (
      await fetch(`${server.url}/v1/preflight`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ server_name: PAGE_SERVERS.pass }) })
    ).json();
    expect(await page.getByTestId("decision-meanings").textContent()).toContain(result.meaning);
  });

  it("changes: the feed newest first, filterable by kind, one server's history linked from its page", async () => {
    await visit("/changes", "changes");
    const feed = await (await fetch(`${server.url}/v1/changes`)).json();
    const ids = await page.getByTestId("change").evaluateAll((rows) => rows.map((r) => Number((r as HTMLElement).dataset.id)));
    expect(ids).toEqual(feed.changes.map((c: { id: number }) => c.id).reverse());
    await page.getByLabel("Kind").selectOption("remote_down");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL(/kind=remote_down/);
    expect(await page.getByTestId("change").evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.kind))).toEqual(["remote_down"]);
    await shoot("changes-filtered");

    await page.goto(`${server.url}/servers/${PAGE_SERVERS.block}`);
    await page.getByRole("link", { name: "All changes of this server" }).click();
    await page.waitForURL(/server_name=/);
    expect(await page.getByTestId("change").evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.kind))).toEqual(["health_change", "server_new"]);
  });

  it("API docs: every operation of /v1/openapi.json and every MCP tool with its inputs and a link to what it answers", async () => {
    await visit("/docs", "docs");
    const doc = await (await fetch(`${server.url}/v1/openapi.json`)).json();
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: "apiKey", in: "header", name: "x-api-key" });
    const expected = Object.entries(doc.paths as Record<string, object>).flatMap(([p, item]) => Object.keys(item).map((m) => `${m} ${p}`));
    const shown = await page.getByTestId("operation").evaluateAll((els) => els.map((e) => `${(e as HTMLElement).dataset.method} ${(e as HTMLElement).dataset.path}`));
    expect(shown.sort()).toEqual(expected.sort());
    const tools = await page.getByTestId("mcp-tool").evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.tool));
    expect(tools).toContain("catalog_preflight");
    expect(tools).toContain("catalog_search");
    // every tool says what it answers, linking the schema (of this page) its structured content matches
    const outputs = await page.getByTestId("mcp-tool").evaluateAll((els) =>
      els.map((e) => [(e as HTMLElement).dataset.tool, [...e.querySelectorAll('[data-testid="tool-output"] a')].map((a) => a.getAttribute("href"))]),
    );
    expect(outputs).toHaveLength(tools.length);
    expect(Object.fromEntries(outputs).catalog_preflight).toEqual(["#schema-PreflightResult", "#schema-Error"]);
    expect(Object.fromEntries(outputs).catalog_stamp).toEqual(["#schema-StampResult", "#schema-Error"]);
    for (const [tool, hrefs] of outputs) {
      expect(hrefs, String(tool)).toHaveLength(2);
      for (const href of hrefs as string[]) expect(await page.locator(href).count(), `${tool} → ${href}`).toBe(1);
    }
  });

  it("config audit: paste a config → a verdict per entry from the seeded catalog", async () => {
    await visit("/audit", "audit");
    const config = { mcpServers: { weather: { command: "npx", args: ["-y", "@acme/mcp-weather@1.4.2"] }, local: { command: "node", args: ["server.js"] } } };
    await page.getByLabel("Config file contents").fill(JSON.stringify(config, null, 2));
    await page.getByRole("button", { name: "Audit" }).click();
    await page.getByTestId("audit-summary").waitFor();
    expect(await page.getByTestId("audit-summary").textContent()).toContain("2 entries: 1 PASS, 0 REVIEW, 0 BLOCK, 1 UNKNOWN");
    expect(await page.getByRole("row").filter({ hasText: PAGE_SERVERS.pass }).textContent()).toContain("PASS");
    await axe("audit-verdicts");
    await shoot("audit-verdicts");
  });

  it("sign in through the dev mailbox → create a key → create a watch (secret once) → see it in the API → delete it", async () => {
    const email = `pages-${Date.now()}@example.test`;
    const signin = await page.goto(`${server.url}/watches?server=${encodeURIComponent(PAGE_SERVERS.pass)}`);
    expect(signin?.status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe("/signin");
    await axe("signin");
    await shoot("signin");
    await signInThroughMailbox(page, server.url, email);
    await page.waitForURL(/\/watches\?server=/);

    await page.goto(`${server.url}/account`);
    await page.getByRole("button", { name: "Create a key" }).click();
    await page.getByTestId("new-key-sent").waitFor();
    await axe("account");
    await shoot("account");
    await page.goto(`${server.url}/dev/mailbox`);
    const keyMail = page.getByTestId("mail").filter({ hasText: "Your mcp-preflight API key" });
    await expect.poll(() => keyMail.count()).toBe(1);
    const key = (await keyMail.textContent())!.match(/catk_[0-9A-Za-z]{38}/)![0];
    await page.goto(`${server.url}/account`);

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Watches" }).click();
    await page.waitForURL(/\/watches$/);
    expect(await page.getByTestId("no-watches").count()).toBe(1);
    await page.getByLabel("Server name (exact)").fill(PAGE_SERVERS.pass);
    await page.getByLabel("Label (optional)").fill("from the browser");
    // a refused form keeps what was typed (React resets a form after its action): fix one field and send again
    await page.getByLabel("Webhook URL (https)").fill("http://hooks.example.com/catalog");
    await page.getByRole("checkbox", { name: "remote_up" }).uncheck();
    await page.getByRole("button", { name: /^Create watch/ }).click();
    await page.getByTestId("watch-error").waitFor();
    expect(await page.getByTestId("watch-error").textContent()).toBe("Webhook URL must start with https:// (http is refused).");
    expect(await page.getByLabel("Server name (exact)").inputValue()).toBe(PAGE_SERVERS.pass);
    expect(await page.getByLabel("Label (optional)").inputValue()).toBe("from the browser");
    expect(await page.getByRole("checkbox", { name: "remote_up" }).isChecked()).toBe(false);
    await page.getByLabel("Webhook URL (https)").fill("");
    await page.getByRole("checkbox", { name: "remote_up" }).check();
    await page.getByLabel("E-mail").fill(email);
    await page.getByRole("button", { name: /^Create watch/ }).click();
    await page.getByTestId("watch-created").waitFor();
    const secret = (await page.getByTestId("watch-secret").textContent())!.trim();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    await expect.poll(() => page.getByTestId("watch-row").count()).toBe(1);
    await axe("watches");
    await shoot("watches");

    // the same account through the API, with the key made above
    const listed = await (await fetch(`${server.url}/v1/watch`, { headers: { "x-api-key": key } })).json();
    expect(listed.watches).toHaveLength(1);
    expect(listed.watches[0]).toMatchObject({ server_name: PAGE_SERVERS.pass, email, label: "from the browser", status: "active" });
    const credits = await (await fetch(`${server.url}/v1/credits`, { headers: { "x-api-key": key } })).json();
    expect(credits.remaining).toBe(990);

    // shown once: not after a reload
    await page.reload();
    await page.getByTestId("watch-row").waitFor();
    expect(await page.content()).not.toContain(secret);
    await page.getByTestId("watch-row").getByText(/^Recent deliveries/).click();

    await page.getByRole("button", { name: `Delete watch ${listed.watches[0].id} of ${PAGE_SERVERS.pass}` }).click();
    await page.getByTestId("no-watches").waitFor();
    const after = await (await fetch(`${server.url}/v1/watch`, { headers: { "x-api-key": key } })).json();
    expect(after.watches).toEqual([]);
  });

  it("reports the axe results of every page", () => {
    const pages = Object.keys(axeReport);
    expect(pages.length).toBeGreaterThanOrEqual(12);
    console.log(
      "axe-core: " +
        pages.map((p) => `${p} ${axeReport[p].critical}/${axeReport[p].serious}/${axeReport[p].moderate}/${axeReport[p].minor}`).join(", ") +
        " (critical/serious/moderate/minor)",
    );
  });
});
