import { sendMail } from "@/lib/auth/send-mail";
import { siteUrl } from "@/lib/config";
import { log } from "@/lib/log";
import type { AttemptOutcome } from "./send-webhook";
import type { WatchEventPayload } from "./event-payload";
import { errorMessage } from "@/lib/db/query-error";

export interface WatchEmail {
  to: string;
  serverName: string;
  label: string | null;
  unsubscribeToken: string;
  payload: WatchEventPayload;
}

/** The link in every watch e-mail: it works without signing in (the token can only unsubscribe). */
export function unsubscribeUrl(token: string): string {
  return `${siteUrl()}/watch/unsubscribe?token=${encodeURIComponent(token)}`;
}

const SUMMARY: Record<string, string> = {
  remote_down: "a remote endpoint stopped answering",
  remote_up: "a remote endpoint answers again",
  health_change: "its health changed",
  verified_change: "its verified state changed",
  security: "its known security advisories changed",
};

const unicodeEscape = (c: string) => Array.from({ length: c.length }, (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, "0")}`).join("");

/**
 * ` (watch "<label>")`, or nothing. The label is the requester's own text, in mails to an address that may not
 * be theirs (the request to confirm): quoted as a JSON string, with line and paragraph separators, direction
 * marks and other invisible characters escaped too, so it stays inside its quotes on its one line and cannot add
 * lines that read as ours.
 */
export const watchLabelText = (label: string | null) =>
  label ? ` (watch ${JSON.stringify(label).replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, unicodeEscape)})` : "";

const show = (v: unknown) => (v === null || v === undefined ? "(nothing recorded)" : JSON.stringify(v, null, 2));

export function watchEmailContent(mail: WatchEmail): { subject: string; text: string; unsubscribe: string } {
  const { payload } = mail;
  const unsubscribe = unsubscribeUrl(mail.unsubscribeToken);
  const subject = `${mail.serverName}: ${SUMMARY[payload.type] ?? payload.type}`;
  const text = [
    `mcp-preflight observed a change of ${mail.serverName}${watchLabelText(mail.label)}: ${SUMMARY[payload.type] ?? payload.type}.`,
    "",
    `Event: ${payload.type} (${payload.id}), recorded ${payload.created_at}`,
    "",
    "Before:",
    show(payload.data.before),
    "",
    "After:",
    show(payload.data.after),
    "",
    `Evidence card: ${payload.data.card_url}`,
    "",
    "A change is public evidence, not a security finding; re-run a preflight before you rely on this server.",
    "",
    `Stop these e-mails (no sign-in needed): ${unsubscribe}`,
  ].join("\n");
  return { subject, text, unsubscribe };
}

/** Sends one watch notice through the sign-in mail path (SMTP_URL, or the dev mailbox without it). */
export async function sendWatchEmail(mail: WatchEmail, timeoutMs: number): Promise<AttemptOutcome> {
  const started = performance.now();
  const { subject, text, unsubscribe } = watchEmailContent(mail);
  const host = URL.canParse(siteUrl()) ? new URL(siteUrl()).hostname : "localhost";
  let timer: NodeJS.Timeout | undefined;
  try {
    const sent = await Promise.race([
      sendMail({
        to: mail.to,
        subject,
        text,
        url: unsubscribe,
        messageId: `<${mail.payload.id}.${mail.payload.watch_id}@${host}>`,
        headers: {
          "List-Unsubscribe": `<${unsubscribe}>`,
          "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
          "X-Catalog-Event": mail.payload.type,
          "X-Catalog-Watch-Id": mail.payload.watch_id,
          "X-Catalog-Delivery": mail.payload.id,
        },
      }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timeout: the mail server did not accept the message within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return { ok: true, statusCode: null, error: null, response: sent.response ?? sent.delivered, durationMs: Math.round(performance.now() - started) };
  } catch (err) {
    log.warn("watch e-mail not sent", { watch: mail.payload.watch_id, delivery: mail.payload.id, error: errorMessage(err) });
    return { ok: false, statusCode: null, error: mailFailure(err), response: null, durationMs: Math.round(performance.now() - started) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * What the watch's owner reads of a failed send (GET /v1/watch/deliveries): the mail server's own answer to the
 * message (an SMTP reply), our timeout, or the kind of network failure. Not the error's text, which names the
 * operator's mail server (`connect ECONNREFUSED 10.0.0.5:587`); the log keeps that.
 */
export function mailFailure(err: unknown): string {
  const e = (err ?? {}) as { message?: unknown; responseCode?: unknown; response?: unknown };
  const message = typeof e.message === "string" ? e.message : String(err);
  if (typeof e.responseCode === "number") return `the mail server refused the message: ${typeof e.response === "string" ? e.response : e.responseCode}`;
  if (message.startsWith("timeout:")) return message;
  const code = /\bE[A-Z]{3,}\b/.exec(message)?.[0];
  return `the mail server could not be reached${code ? ` (${code})` : ""}`;
}
