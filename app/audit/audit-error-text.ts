import { sentenceCase } from "@/app/_components/field-refusal";
import { waitText } from "@/app/_components/wait-text";

// The audit page's line for a refused audit, from the Error body POST /v1/audit answered (the page's script reads
// it from the API, the form action from callForPage). The body is the contract's and stays as it is; the page
// said it as "400 invalid_request: the config file cannot be read: …", a status and an identifier meant for
// programs. A person gets the message as a sentence, or the page's own where the message speaks of headers.

/** The query fields as the audit form labels them: a message naming one by its path names the form's field. */
const FIELD_LABELS: Record<string, string> = { policy_id: "Policy", filename: "File name or path", strict: "Strict" };

/** The line the audit page shows for an error answer of POST /v1/audit (the contract's Error body, or none). */
export function auditErrorText(status: number, body: { error?: string; message?: string; retry_after?: number } | null): string {
  // a 5xx says nothing the person can act on; an answer with no Error body is not the API's (a proxy's page)
  if (status >= 500 || !body?.message) return `The audit failed on the server (HTTP ${status}). Try again in a minute.`;
  switch (body.error) {
    case "unauthorized":
      // the message names the x-api-key header, which the person never saw: the key is the form's
      return "The API key in the form is not valid (unknown, malformed or revoked): copy it again from the account page, or leave the box empty to audit without a key.";
    case "payment_required":
      return "The API key's account has too few credits left for this audit; its wallet refills on the first day of the next UTC month. Without a key, the audit counts against this address's free daily allowance instead.";
    case "rate_limited": {
      // a burst limit clears in seconds, the keyless daily allowance at the next UTC midnight
      const retry = body.retry_after ? ` Try again in about ${waitText(body.retry_after)}, or use an API key.` : "";
      return `${sentenceCase(body.message)}${retry}`;
    }
  }
  return sentenceCase(labelled(body.message));
}

/** "policy_id: …" → "Policy: …". */
function labelled(message: string): string {
  const m = /^(\w+): /.exec(message);
  return m && FIELD_LABELS[m[1]] ? `${FIELD_LABELS[m[1]]}: ${message.slice(m[0].length)}` : message;
}
