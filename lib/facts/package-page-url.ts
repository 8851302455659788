// Names the package registries can hold (npm: an optional @scope/ and a name of URL-safe characters, legacy
// capitals included; PyPI: PEP 508). A listing's identifier is anyone's text: written into a page URL as it is,
// "x/../legit" would lead to another package's page and "x?y" or "x#y" cut the path, so it gets none.
const NPM_NAME = /^(?:@[A-Za-z0-9~-][\w.~-]*\/)?[A-Za-z0-9~-][\w.~-]*$/;
const PYPI_NAME = /^[A-Za-z0-9](?:[\w.-]*[A-Za-z0-9])?$/;

/** A public page a person can open to check a package record; null where we have none. */
export function packagePageUrl(ecosystem: string, identifier: string): string | null {
  if (ecosystem === "jspkg") return NPM_NAME.test(identifier) ? `https://www.npmjs.com/package/${identifier}` : null;
  if (ecosystem === "pypkg") return PYPI_NAME.test(identifier) ? `https://pypi.org/project/${encodeURIComponent(identifier)}/` : null;
  return null;
}
