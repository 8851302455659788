import type { ApiError, RefusalReason } from "@/lib/api/errors";
import { fieldRefusal, quoted, sentenceCase, type FormFields } from "@/app/_components/field-refusal";

/** The watch form's fields as the page labels them (watch-form.tsx), and the checks only they make. */
const WATCH_FORM: FormFields = {
  fields: {
    server_name: { label: "Server name" },
    webhook_url: {
      label: "Webhook URL",
      rule: (issue, value) => {
        if (issue.code === "invalid_format") return "Webhook URL must be a whole address starting with https://.";
        if (issue.code !== "custom") return undefined;
        const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(String(value))?.[1]?.toLowerCase();
        return scheme && scheme !== "https" ? `Webhook URL must start with https:// (${scheme} is refused).` : "Webhook URL must start with https:// and a host name.";
      },
    },
    email: { label: "E-mail" },
    events: {
      label: "Events",
      rule: (issue, value) => (issue.code === "invalid_value" ? `Events: ${quoted(value)} is not a kind the form offers; tick the ones listed.` : undefined),
    },
    label: { label: "Label" },
  },
  // the schema's one check across fields: a watch needs somewhere to send its notices
  whole: () => "Give a webhook URL, an e-mail address, or both.",
};

/**
 * What the watch form says when POST /v1/watch refuses what it sent (`input`, the body it checked): the schema's
 * failed checks, field by field, or the service's refusal (a webhook address, a server not in the catalog, the
 * watch limit, the wallet) from the reason it gives. The Error message is the API's, written for programs
 * ("webhook_url is refused: …", "this account has 5 active watches, …"); the form never shows it as it is.
 */
export function watchRefusal(err: ApiError, input: Record<string, unknown>): string {
  const fields = fieldRefusal(err, WATCH_FORM, input);
  if (fields) return fields;
  if (err.extra.reason) return reasonSentence(err.extra.reason);
  // a refusal with no reason given (none is known to reach this form): the message, as a sentence
  return sentenceCase(err.message);
}

function reasonSentence(reason: RefusalReason): string {
  switch (reason.code) {
    case "webhook_not_url":
      return "Webhook URL must be a whole address starting with https://.";
    case "webhook_not_https":
      return `Webhook URL must start with https:// (${reason.scheme} is refused).`;
    case "webhook_credentials":
      return "Webhook URL must not hold a user name or password (the part before @): take it out. Each delivery is signed with the watch's secret instead.";
    case "webhook_blocked_port":
      return `Webhook URL port ${reason.port} is one HTTP clients never connect to (it belongs to mail, chat and the like): use another port, or none for 443.`;
    case "webhook_private_address":
      // webhooks are sent only to the public internet: a receiver inside a private network is reached through a public host
      if (reason.address === undefined) return `Webhook URL names ${quoted(reason.host)}, which is this machine itself: give a host name on the public internet.`;
      if (reason.address === reason.host) return `Webhook URL points at ${reason.address}, a private or loopback address: give a host name or address on the public internet.`;
      return `Webhook URL host ${quoted(reason.host)} resolves to ${reason.address}, a private address: give a host that resolves to public addresses only.`;
    case "webhook_not_resolvable":
      return `Webhook URL host ${quoted(reason.host)} has no address in DNS: check how it is spelled.`;
    case "unknown_server":
      return `We have no server named ${quoted(reason.name)}. Names are exact and case-sensitive: copy it from the server's page, such as io.github.owner/name.`;
    case "watch_limit": {
      // an operator may grant a limit below what the account already has
      const where =
        reason.active > reason.limit
          ? `has ${reason.active} active watches, over its limit of ${reason.limit}${reason.granted ? " (a limit granted to it)" : ` for a ${reason.tier} account`}`
          : `has reached its limit of ${reason.limit} active watches${reason.granted ? " (a limit granted to it)" : `, the most a ${reason.tier} account may have`}`;
      return `This account ${where}. Delete one below to make room, or ask for more.`;
    }
    case "no_credits":
      return `Your credits do not cover a new watch (${reason.cost} credits). The wallet refills on the first day of the next UTC month.`;
  }
}
