import { devMailboxEnabled, mailFrom, mailServerTimeoutMs, smtpUrl } from "@/lib/config";
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
    const transport = nodemailer.createTransport(withTimeouts(smtp, mailServerTimeoutMs()));
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

/**
 * SMTP_URL with nodemailer's connection, greeting and socket timeouts set to `ms`, unless the URL sets them. They
 * are added to the query as written, leaving the rest of the URL (its credentials' encoding) untouched: nodemailer
 * reads only the URL when given one, so they cannot be passed beside it.
 */
function withTimeouts(smtp: string, ms: number): string {
  const given = URL.canParse(smtp) ? new URL(smtp).searchParams : new URLSearchParams();
  const added = ["connectionTimeout", "greetingTimeout", "socketTimeout"].filter((k) => !given.has(k)).map((k) => `${k}=${ms}`);
  return added.length ? `${smtp}${smtp.includes("?") ? "&" : "?"}${added.join("&")}` : smtp;
}
