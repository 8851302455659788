import { tooLongText } from "@/app/_components/field-refusal";

/** What the audit form would send: the pasted text, whether a file is chosen (without JavaScript), the file name. */
export interface AuditFormInput {
  config: string;
  hasFile: boolean;
  filename: string;
}

/**
 * Why the audit form is not sent, or null to send it: shown beside the disabled Audit button by the script, and
 * as the form action's answer without JavaScript, in the same words. POST /v1/audit would refuse either (400,
 * nothing spent), in its own words ("filename: Too big: …"). `filenameMax` is the API's (AUDIT_FILENAME_MAX_CHARS,
 * from the page: lib/config is not for the browser).
 */
export function auditFormRefusal(input: AuditFormInput, filenameMax: number): string | null {
  if (!input.config.trim() && !input.hasFile) return "Paste a config file or choose one.";
  // sent trimmed, by the script and the action alike
  const filename = input.filename.trim();
  if (filename.length > filenameMax) return tooLongText("File name or path", filenameMax, filename.length);
  return null;
}
