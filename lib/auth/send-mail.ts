import { devMailboxEnabled, mailFrom, smtpUrl } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { devMailbox } from "@/lib/db/schema";
import { log } from "@/lib/log";

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  /** The one link the message is about (sign-in, account page). */
  url?: string;
  /** Extra SMTP headers (watch notices: List-Unsubscribe, X-Catalog-Delivery). */
  headers?: Record<string, string>;
  /** Message-ID, so a resent notice is recognisable as the same message. */
  messageId?: string;
}

/**
 * Sends a message through SMTP_URL (nodemailer). Without SMTP the message goes
 * to the server log and to the dev mailbox (/dev/mailbox), so a new user can sign
 * in on a machine with no mail server. The log line never carries the text: the messages holding an API
 * key (lib/accounts/mail-new-key.ts) stay out of the log.
 */
export async function sendMail(mail: OutgoingMail): Promise<{ delivered: "smtp" | "dev-mailbox" | "log"; response?: string }> {
  const smtp = smtpUrl();
  if (smtp) {
    const nodemailer = await import("nodemailer");
    const transport = nodemailer.createTransport(smtp);
    const info = await transport.sendMail({
      from: mailFrom(),
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      headers: mail.headers,
      messageId: mail.messageId,
    });
    log.info("mail sent", { to: mail.to, subject: mail.subject });
    return { delivered: "smtp", response: info.response };
  }
  // No mail server: the log line is how an operator of the embedded default signs in.
  log.info("mail not sent (no SMTP_URL); open the link from the log or /dev/mailbox", {
    to: mail.to,
    subject: mail.subject,
    url: mail.url,
  });
  if (!devMailboxEnabled()) return { delivered: "log" };
  const db = await getDb();
  await db.insert(devMailbox).values({ to: mail.to, subject: mail.subject, text: mail.text, url: mail.url ?? null });
  return { delivered: "dev-mailbox" };
}
