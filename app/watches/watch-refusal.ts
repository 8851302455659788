import type { ApiError } from "@/lib/api/errors";
import { fieldRefusal, quoted, type FormFields } from "@/app/_components/field-refusal";

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
 * What the watch form says when POST /v1/watch's schema refuses what it sent (`input`, the body it checked), or
 * the service's own message (a server not in the catalog, a refused address, the watch limit).
 */
export function watchRefusal(err: ApiError, input: Record<string, unknown>): string {
  return fieldRefusal(err, WATCH_FORM, input) ?? err.message;
}
