"use server";

import { callForPage } from "@/lib/api/page-call";
import { readConfigBytes } from "@/lib/api/read-config-body";
import { parseWith } from "@/lib/api/request";
import { getDb } from "@/lib/db/client";
import { auditQuerySchema, type AuditResult } from "@/lib/schemas/config-audit";
import { auditConfig } from "@/lib/services/audit-config";
import { AUDIT_FILENAME_MAX_CHARS } from "@/lib/config";
import { auditErrorText } from "./audit-error-text";
import { auditFormRefusal } from "./audit-form-refusal";

export interface AuditFormValues {
  config: string;
  filename: string;
  policy_id: string;
  strict: boolean;
}

export interface AuditActionState {
  result?: AuditResult;
  error?: string;
  /** What was sent (the key aside), for the form to show again. */
  values?: AuditFormValues;
}

/**
 * POST /v1/audit for the audit page's form when it is sent without JavaScript (with it, the page's script posts
 * to the API itself): the same query schema, body limits, service and metering, the key being the one typed
 * into the form. A chosen file is read as the API reads a body; pasted text as the script sends it.
 */
export async function auditConfigAction(_prev: AuditActionState, form: FormData): Promise<AuditActionState> {
  const field = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v : "";
  };
  // a browser sends a textarea's line breaks as CRLF, where the script sends the box's value (LF): the same
  // pasted config is then the same config, and a repeat of it the same day is free either way
  const pasted = field("config").replace(/\r\n/g, "\n");
  const file = form.get("file");
  const upload = !pasted.trim() && file instanceof File && file.size > 0 ? file : null;
  const values: AuditFormValues = {
    config: pasted,
    filename: field("filename").trim() || upload?.name || "",
    policy_id: field("policy_id") || "builtin:baseline",
    strict: field("strict") === "1",
  };
  const refusal = auditFormRefusal({ config: pasted, hasFile: upload !== null, filename: values.filename }, AUDIT_FILENAME_MAX_CHARS);
  if (refusal) return { error: refusal, values };
  const answer = await callForPage(field("api_key").trim() || null, async ({ caller, charge }) => {
    const query = parseWith(
      auditQuerySchema,
      { policy_id: values.policy_id, ...(values.strict && { strict: "1" }), ...(values.filename && { filename: values.filename }) },
      "query",
    );
    const text = readConfigBytes(upload ? new Uint8Array(await upload.arrayBuffer()) : Buffer.from(pasted, "utf8"));
    return auditConfig(await getDb(), { text, ...query }, { caller, charge });
  });
  if (!answer.ok) return { error: auditErrorText(answer.status, answer.body), values };
  return { result: answer.value, values };
}
