import { expect } from "vitest";
import type { Page } from "playwright-core";

/**
 * Signs in from the sign-in form the page shows: sends the link to `email`, then follows it from the dev mailbox
 * (the server runs with the mailbox instead of SMTP). Returns once the link is clicked; the caller waits for
 * where it should land.
 */
export async function signInThroughMailbox(page: Page, baseUrl: string, email: string): Promise<void> {
  await page.getByLabel("E-mail address").fill(email);
  await page.getByRole("button", { name: "Send me a sign-in link" }).click();
  await page.waitForURL(/\/signin\/check-email/);
  await page.goto(`${baseUrl}/dev/mailbox`);
  const mail = page.getByTestId("mail").filter({ hasText: email });
  await expect.poll(() => mail.count()).toBe(1);
  await mail.getByTestId("mail-link").click();
}
