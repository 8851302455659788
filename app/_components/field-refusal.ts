import type { ApiError, FieldIssue } from "@/lib/api/errors";

// The pages' words for a refused input. The API's Error message names fields by their JSON paths, in zod's words
// ("label: Too big: expected string to have <=200 characters"), which is right for a program and wrong for a
// person at a form: these say each failed check as a sentence naming the field as the page labels it. Only types
// are imported here: the audit form, a client component, uses the sentences too.

/** One form field: its label on the page, and its own sentence for a check only it makes (a refinement). */
export interface FormField {
  label: string;
  rule?: (issue: FieldIssue, value: unknown) => string | undefined;
}

export interface FormFields {
  fields: Record<string, FormField>;
  /** The sentence for a check of the form as a whole (across fields). */
  whole?: (issue: FieldIssue) => string;
}

/** A value quoted in a sentence, cut as the API cuts what it quotes. */
export const quoted = (value: unknown, max = 80) => {
  const text = String(value ?? "");
  return `“${text.length > max ? `${text.slice(0, max)}…` : text}”`;
};

/** The rule for text over its longest length, in the words the search box uses for a query. */
export const tooLongText = (label: string, max: number | bigint, length: number) => `${label} is at most ${max} characters; this one has ${length}.`;

export const requiredText = (label: string) => `${label} is required.`;

/**
 * The sentences for an input the API's schema refused (parseWith's issues), one per failed check, in the order
 * checked; null when the error carries no issues (a refusal of the service itself, said in its own words).
 * `values` is what was checked, by field name.
 */
export function fieldRefusal(err: ApiError, form: FormFields, values: Record<string, unknown>): string | null {
  const issues = err.extra.issues;
  if (!issues?.length) return null;
  return issues.map((issue) => issueSentence(issue, form, values)).join(" ");
}

function issueSentence(issue: FieldIssue, form: FormFields, values: Record<string, unknown>): string {
  const [name, index] = issue.path;
  if (name === undefined) return form.whole?.(issue) ?? sentenceCase(issue.message);
  const field = form.fields[String(name)];
  // a field the form does not have: nothing the page sent, so no label to name; the API's words
  if (!field) return sentenceCase(`${String(name)}: ${issue.message}`);
  const whole = values[String(name)];
  const value = Array.isArray(whole) && typeof index === "number" ? whole[index] : whole;
  const own = field.rule?.(issue, value);
  if (own) return own;
  const { label } = field;
  switch (issue.code) {
    case "nul_character":
      return `${label} must not hold a NUL character.`;
    case "lone_surrogate":
      return `${label} holds text that is not well-formed Unicode.`;
    case "invalid_type":
      if (value === undefined || value === "") return requiredText(label);
      break;
    case "too_small":
      if (issue.origin === "string") return Number(issue.minimum) <= 1 ? requiredText(label) : `${label} needs at least ${issue.minimum} characters.`;
      break;
    case "too_big":
      if (issue.origin === "string" && issue.maximum !== undefined) return tooLongText(label, issue.maximum, String(value ?? "").length);
      break;
    case "invalid_format":
      if (issue.format === "email") return `${label} must be an address like you@example.com; ${quoted(value)} is not one.`;
      if (issue.format === "url") return `${label} must be a whole address, such as https://example.com/path.`;
      break;
    case "invalid_value":
      return `${label}: ${quoted(value)} is not one of the choices offered.`;
  }
  return `${label}: ${issue.message}.`;
}

/** A message as a sentence: a capital first, a full stop last. */
export const sentenceCase = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? "" : "."}`;
