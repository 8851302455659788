import { waitText } from "@/app/_components/wait-text";

/** The line the audit page shows for an error answer of POST /v1/audit (the contract's Error body, or none). */
export function auditErrorText(status: number, body: { error?: string; message?: string; retry_after?: number } | null): string {
  // a burst limit clears in seconds, the keyless daily allowance at the next UTC midnight
  const retry = body?.retry_after ? ` Try again in about ${waitText(body.retry_after)}, or use an API key.` : "";
  return `${status} ${body?.error ?? "error"}: ${body?.message ?? "the audit failed"}.${retry}`;
}
