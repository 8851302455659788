import { listedVersionKey, pinnedVersion } from "./listed-version-exists";

/** What a package observation holds per version (lib/sources npm and pypi answers). */
interface VersionRecord {
  deprecated?: string | null;
  yanked?: boolean;
}

/**
 * Whether the listed version (or, none listed, the latest) is marked "do not use" by its registry; null when
 * the package was not observed to exist or that version's record was not seen (the latest one too: a
 * `dist-tags.latest` missing from npm's `versions`, a PyPI answer without `info.version`). jspkg: the publisher's
 * per-version deprecation. pypkg: the release is yanked (PyPI's per-release "do not use"), or its project's
 * PEP 792 status is deprecated or archived (lib/sources/pypi.ts marks every release so).
 */
export function listedVersionDeprecated(
  o: { exists: boolean | null; observedAt: Date | null; latestVersion: string | null; deprecated: string | null; versions: unknown } | null,
  version: string | null,
  ecosystem: string,
): boolean | null {
  if (!o || o.exists !== true || o.observedAt === null) return null;
  const versions = (o.versions ?? {}) as Record<string, VersionRecord>;
  // a tag such as "latest" pins nothing (listed-version-exists.ts): the registry's latest version runs
  const pinned = pinnedVersion(version);
  // the pinned release as the existence check finds it (PyPI's "1.0" is the listing's "1.0.0")
  const key = pinned === null ? (o.latestVersion ?? "") : listedVersionKey(versions, pinned, ecosystem);
  const record = key === null ? undefined : versions[key];
  if (record) return Boolean(record.deprecated || record.yanked);
  // No record of that version (a latest version the registry names but does not hold, or names none): a
  // deprecation of the latest (npm) or of the whole project (PyPI's status) still speaks for it; its absence
  // says nothing about a record that was never seen.
  if ((pinned === null || version === o.latestVersion) && o.deprecated) return true;
  return null;
}
