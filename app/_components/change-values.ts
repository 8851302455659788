// A change's `before` and `after` (GET /v1/changes) as a person reads them. The feed keeps them as JSON for
// programs ({"live":false,"http_status":503}); the pages showed that JSON as it was. Here every field is
// "name: value": true and false are yes and no, a list is joined, a field with no value is "unknown" (or
// "none" where nothing is the answer), and a side with nothing at all (a new server's `before`) is "none".

/** Fields named otherwise than by their key with spaces. */
const LABELS: Record<string, string> = { http_status: "HTTP status", url: "URL", tools_count: "tools" };

/** Fields whose null means there was nothing, not that it was not known. */
const NULL_MEANS_NONE = new Set(["http_status"]);

/** Most items of a list written out; the rest are counted. */
const MAX_ITEMS = 10;
const MAX_CHARS = 300;

/** One side of a change as text: "health: issues; problems: repo_gone". */
export function changeValueText(value: unknown): string {
  if (value === undefined) return "";
  if (value === null) return "none";
  const text = isRecord(value) ? fieldsText(value, "; ") || "none" : itemText(value);
  return text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS - 1)}…` : text;
}

const label = (key: string) => LABELS[key] ?? key.replace(/_/g, " ");

function fieldsText(value: Record<string, unknown>, separator: string): string {
  return Object.entries(value)
    .map(([k, v]) => `${label(k)}: ${fieldText(k, v)}`)
    .join(separator);
}

function fieldText(key: string, value: unknown): string {
  if (value === null) return NULL_MEANS_NONE.has(key) ? "none" : "unknown";
  if (key === "advisories" && Array.isArray(value)) return listText(value.map((a) => (isRecord(a) ? advisoryText(a) : itemText(a))));
  return itemText(value);
}

function itemText(value: unknown): string {
  if (value === null || value === undefined) return "unknown";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "string") return value === "" ? "none" : value;
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  if (Array.isArray(value)) return listText(value.map(itemText));
  if (isRecord(value)) return `(${fieldsText(value, ", ") || "none"})`;
  return String(value);
}

function listText(items: string[]): string {
  if (!items.length) return "none";
  const shown = items.slice(0, MAX_ITEMS).join(", ");
  return items.length > MAX_ITEMS ? `${shown} and ${items.length - MAX_ITEMS} more` : shown;
}

/** A security change's advisory: "GHSA-… (high) in npm @acme/x 1.4.2". */
function advisoryText(a: Record<string, unknown>): string {
  const severity = a.severity ? ` (${itemText(a.severity)})` : "";
  const where = [a.ecosystem, a.identifier, a.version].filter((x) => typeof x === "string" && x).join(" ");
  return `${itemText(a.id)}${severity}${where ? ` in ${where}` : ""}`;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
