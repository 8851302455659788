/** A public page a person can open to check a package record; null where we have none. */
export function packagePageUrl(ecosystem: string, identifier: string): string | null {
  if (ecosystem === "jspkg") return `https://www.npmjs.com/package/${identifier}`;
  if (ecosystem === "pypkg") return `https://pypi.org/project/${encodeURIComponent(identifier)}/`;
  return null;
}
