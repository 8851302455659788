import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchChromium, screenshotDir } from "./helpers/browser";
import { startServer, type RunningServer } from "./helpers/server";

// One story, in order, as a new user lives it: sign in through the dev mailbox,
// create a key (sent by e-mail, never shown on a page), use it, revoke it, see it refused.
describe("account and API keys in a browser", () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let key = "";
  const email = `e2e-${Date.now()}@example.test`;
  const shots = screenshotDir();
  const shot = (name: string) => page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });

  beforeAll(async () => {
    server = await startServer();
    browser = await launchChromium();
    page = await browser.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("signs a new user in through the dev mailbox link", async () => {
    await page.goto(`${server.url}/account`);
    expect(new URL(page.url()).pathname).toBe("/signin");
    await page.getByLabel("E-mail address").fill(email);
    await page.getByRole("button", { name: "Send me a sign-in link" }).click();
    await page.waitForURL(/\/signin\/check-email/);
    await shot("01-check-email");

    await page.goto(`${server.url}/dev/mailbox`);
    const mail = page.getByTestId("mail").filter({ hasText: email });
    await expect.poll(() => mail.count()).toBe(1);
    await shot("02-dev-mailbox");
    // the same link is in the server log, for operators without a browser
    const href = await mail.getByTestId("mail-link").getAttribute("href");
    expect(href).toMatch(/\/api\/auth\/callback\/email\?/);
    expect(server.log()).toContain(href!);

    await mail.getByTestId("mail-link").click();
    await page.waitForURL(/\/account$/);
    expect(await page.getByTestId("account-email").textContent()).toBe(email);
    expect(await page.getByTestId("tier").textContent()).toBe("registered");
    expect(await page.getByTestId("credits-remaining").textContent()).toBe("1,000");
    await shot("03-account");
  });

  it("creates a key and sends it to the account e-mail; no page shows it", async () => {
    // a name over 40 characters is refused in words, kept in the box to be shortened, and makes no key
    const name = page.getByLabel("Key name");
    await name.fill("n".repeat(41));
    await page.getByRole("button", { name: "Create a key" }).click();
    await expect.poll(async () => (await page.locator("#create-key").getByRole("alert").textContent())?.trim()).toBe("Key name is at most 40 characters; this one has 41. No key was made.");
    expect(await name.inputValue()).toBe("n".repeat(41));
    expect(await page.getByTestId("key-row").count()).toBe(0);

    await name.fill("  e2e laptop ");
    await page.getByRole("button", { name: "Create a key" }).click();
    await page.getByTestId("new-key-sent").waitFor();
    await expect.poll(() => page.getByTestId("key-row").count()).toBe(1);
    expect(await page.getByTestId("key-row").getByTestId("key-name").textContent()).toBe("e2e laptop");
    expect(await page.getByRole("columnheader").allTextContents()).toEqual(["Key", "Name", "Created", "Last used", "Actions"]);
    const shown = await page.content();
    await shot("04-key-created");

    await page.goto(`${server.url}/dev/mailbox`);
    const mail = page.getByTestId("mail").filter({ hasText: "Your mcp-preflight API key" });
    await expect.poll(() => mail.count()).toBe(1);
    key = (await mail.textContent())!.match(/catk_[0-9A-Za-z]{38}/)![0];
    expect(shown).not.toContain(key);
    expect(shown).toContain(`${key.slice(0, 11)}…`);

    await page.goto(`${server.url}/account`);
    await page.getByTestId("key-row").first().waitFor();
    expect(await page.content()).not.toContain(key);
    expect(await page.getByTestId("key-row").textContent()).toContain(`${key.slice(0, 11)}…`);
    await shot("05-key-listed-without-secret");
  });

  it("uses the key with a plain HTTP client against /v1/credits", async () => {
    const res = await fetch(`${server.url}/v1/credits`, { headers: { "x-api-key": key } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true, tier: "registered", remaining: 1000, grant: 1000, purchased: 0 });
    const anonymous = await fetch(`${server.url}/v1/credits`);
    expect(anonymous.status).toBe(401);
  });

  let replacement = "";
  it("sends a new key to the account e-mail for a lost one; the page shows only its prefix", async () => {
    await page.goto(`${server.url}/account`);
    await page.getByRole("button", { name: "I lost a key" }).click();
    const sent = page.getByTestId("lost-key-sent");
    await sent.waitFor();
    await expect.poll(() => page.getByTestId("key-row").count()).toBe(2);
    const shown = await page.content();
    await page.goto(`${server.url}/dev/mailbox`);
    const mail = page.getByTestId("mail").filter({ hasText: "new mcp-preflight API key" });
    await expect.poll(() => mail.count()).toBe(1);
    const text = (await mail.textContent())!;
    replacement = text.match(/catk_[0-9A-Za-z]{38}/)![0];
    expect(replacement).not.toBe(key);
    expect(text).not.toContain(key);
    expect(shown).not.toContain(replacement);
    expect(shown).toContain(`${replacement.slice(0, 11)}…`);
    const res = await fetch(`${server.url}/v1/credits`, { headers: { "x-api-key": replacement } });
    expect(res.status).toBe(200);
    await shot("06-lost-key-replacement");
  });

  it("revokes the key, after which the next call gets 401", async () => {
    await page.goto(`${server.url}/account`);
    const row = page.getByTestId("key-row").filter({ hasText: key.slice(0, 11) });
    const confirm = row.getByRole("button", { name: `Revoke key ${key.slice(0, 11)}` });
    // the first click only opens the confirmation: nothing is revoked yet
    expect(await confirm.isVisible()).toBe(false);
    await row.getByText("Revoke…").click();
    await confirm.waitFor();
    await shot("07-revoke-confirm");
    expect((await fetch(`${server.url}/v1/credits`, { headers: { "x-api-key": key } })).status).toBe(200);
    await confirm.click();
    await expect.poll(() => page.getByTestId("key-row").count()).toBe(1);
    await shot("08-key-revoked");
    const res = await fetch(`${server.url}/v1/credits`, { headers: { "x-api-key": key } });
    expect(res.status).toBe(401);
    const text = await res.text();
    expect(JSON.parse(text)).toMatchObject({ ok: false, error: "unauthorized" });
    expect(text).not.toContain(key);
  });

  it("signs out on the server: the session's cookie no longer opens the account page", async () => {
    const cookies = await page.context().cookies();
    const session = cookies.find((c) => c.name.endsWith("next-auth.session-token"));
    expect(session).toBeDefined();
    await page.goto(`${server.url}/account`);
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL((u) => u.pathname === "/");
    // someone who copied the cookie before the sign-out
    const res = await fetch(`${server.url}/account`, { headers: { cookie: `${session!.name}=${session!.value}` }, redirect: "manual" });
    expect(res.status).toBe(307);
    expect(res.headers.get("location")).toContain("/signin");
  });

  it("signs out without JavaScript too", async () => {
    // a second user signs in with JavaScript, then reads the account page without
    const other = `e2e-nojs-${Date.now()}@example.test`;
    const withJs = await browser.newPage();
    await withJs.goto(`${server.url}/signin`);
    await withJs.getByLabel("E-mail address").fill(other);
    await withJs.getByRole("button", { name: "Send me a sign-in link" }).click();
    await withJs.waitForURL(/\/signin\/check-email/);
    await withJs.goto(`${server.url}/dev/mailbox`);
    await withJs.getByTestId("mail").filter({ hasText: other }).getByTestId("mail-link").click();
    await withJs.waitForURL(/\/account$/);
    const cookies = await withJs.context().cookies();
    await withJs.close();
    const session = cookies.find((c) => c.name.endsWith("next-auth.session-token"))!;

    const noJs = await browser.newContext({ javaScriptEnabled: false });
    await noJs.addCookies(cookies);
    const page2 = await noJs.newPage();
    await page2.goto(`${server.url}/account`);
    expect(await page2.getByTestId("account-email").textContent()).toBe(other);
    await page2.getByRole("button", { name: "Sign out" }).click();
    // next-auth's own confirmation, whose form carries its CSRF token
    await page2.getByRole("button", { name: "Sign out" }).click();
    await page2.waitForURL((u) => u.pathname === "/");
    const res = await fetch(`${server.url}/account`, { headers: { cookie: `${session.name}=${session.value}` }, redirect: "manual" });
    expect(res.status).toBe(307);
    await noJs.close();
  });

  it("never wrote a key to the server log", () => {
    expect(key).not.toBe("");
    expect(replacement).not.toBe("");
    expect(server.log()).not.toContain(key);
    expect(server.log()).not.toContain(replacement);
  });
});
