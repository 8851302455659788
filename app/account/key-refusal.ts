import type { ApiError } from "@/lib/api/errors";
import { fieldRefusal, type FormFields } from "@/app/_components/field-refusal";
import { normalizeApiKeyName } from "@/lib/accounts/api-key-name";

/** The key form's one field as the page labels it (account-forms.tsx). */
const KEY_FORM: FormFields = { fields: { name: { label: "Key name" } } };

/**
 * What the key form says when a new key is refused: a name the key may not have, in the page's words and counted
 * as the rule counts it (after trimming), and that no key was made; else the service's own message (the live-key
 * limit, the hour's mail allowance). `submitted` is the name as typed.
 */
export function keyRefusal(err: ApiError, submitted: string): string {
  const sentence = fieldRefusal(err, KEY_FORM, { name: normalizeApiKeyName(submitted) });
  return sentence ? `${sentence} No key was made.` : err.message;
}
