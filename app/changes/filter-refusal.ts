import type { ApiError } from "@/lib/api/errors";
import { fieldRefusal, quoted, type FormFields } from "@/app/_components/field-refusal";

const OLDER_LINK = "This link to older changes is not one the page made; start again from the newest changes.";

/** The changes page's filters as it labels them; `before` is no field but the "Older changes" link's cursor. */
const CHANGES_FILTERS: FormFields = {
  fields: {
    // a kind the menu does not offer comes from an edited address, whatever check it failed
    kind: { label: "Kind", rule: (_issue, value) => `Kind ${quoted(value)} is not a kind of change this feed has; choose one from the list.` },
    server_name: { label: "Server" },
    before: { label: "Older changes", rule: () => OLDER_LINK },
  },
};

/** What the changes page says when GET /v1/changes would refuse its query (`query`, as checked). */
export function changesFilterRefusal(err: ApiError, query: Record<string, unknown>): string {
  return fieldRefusal(err, CHANGES_FILTERS, query) ?? err.message;
}
