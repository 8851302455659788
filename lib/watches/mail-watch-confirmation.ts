import { sendMail } from "@/lib/auth/send-mail";
import { takeAccountMail } from "@/lib/auth/mail-allowance";
import { siteUrl } from "@/lib/config";
import { log } from "@/lib/log";
import { watchLabelText } from "./send-watch-email";
import { errorMessage } from "@/lib/db/query-error";

/** The link that lets an address agree to one watch's notices; it works without signing in. */
export function confirmWatchEmailUrl(token: string): string {
  return `${siteUrl()}/watch/confirm?token=${encodeURIComponent(token)}`;
}

export interface WatchConfirmation {
  to: string;
  serverName: string;
  label: string | null;
  token: string;
}

export function watchConfirmationContent(c: WatchConfirmation): { subject: string; text: string; url: string } {
  const url = confirmWatchEmailUrl(c.token);
  const text = [
    `Someone with an mcp-preflight account asked to send this address notices about changes of ${c.serverName}${watchLabelText(c.label)}.`,
    "",
    `Nothing is sent to you unless you agree. To receive them, open this link and confirm: ${url}`,
    "",
    "If you did not expect this message, ignore it: no notice follows from it.",
  ].join("\n");
  return { subject: `Confirm notices about ${c.serverName}`, text, url };
}

/**
 * Mails the confirmation link, within the address's hourly allowance of account mail (shared with sign-in
 * links, so asking again and again cannot flood a stranger). Never throws: the watch stands without the mail,
 * and asking again (the same POST /v1/watch) sends it again. Says whether it was sent.
 */
export async function mailWatchConfirmation(c: WatchConfirmation): Promise<boolean> {
  try {
    if (!(await takeAccountMail(c.to))) return false;
    const { subject, text, url } = watchConfirmationContent(c);
    await sendMail({ to: c.to, subject, text, url });
    return true;
  } catch (err) {
    log.warn("watch confirmation mail not sent", { error: errorMessage(err) });
    return false;
  }
}
