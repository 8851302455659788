import { sql, type SQL } from "drizzle-orm";

/**
 * Whether the package a listing names exists in its registry, and, when the listing pins a version, that
 * version too (the finding's text: "the package (and the listed version, when one is listed) exists").
 * - the package itself not observed, or observed missing: its own answer (null, false);
 * - no pinned version (none, `latest`, `auto`: anything not starting with a digit): the package's answer;
 * - the pinned version among the registry's versions (npm: exact, a leading `v` or `=` dropped; PyPI: also with
 *   trailing `.0` release parts dropped, as PEP 440 compares them): true;
 * - not among them: false only when the observation was made after this listing was stored (the harvester
 *   re-reads a package whose newer listing pins a version it lacks), else null (not looked for yet). A PyPI
 *   version that is not a plain release number (`1.0rc1`, `2.0.post1`) is not normalised further: null.
 */
export function listedVersionExists(
  o: { exists: boolean | null; observedAt: Date | null; versions: unknown } | null,
  ecosystem: string,
  version: string | null,
  listedAt: Date | null,
): boolean | null {
  if (!o || o.exists !== true || o.observedAt === null) return o?.exists ?? null;
  const pinned = pinnedVersion(version);
  if (!pinned) return true;
  const versions = o.versions && typeof o.versions === "object" ? (o.versions as Record<string, unknown>) : null;
  if (!versions) return null;
  if (hasVersion(versions, pinned, ecosystem)) return true;
  if (!listedAt || o.observedAt < listedAt) return null;
  return ecosystem === "pypkg" && !RELEASE.test(pinned) ? null : false;
}

const RELEASE = /^\d+(\.\d+)*$/;

/**
 * The version a listing pins, without a leading `v` or `=`; null when it pins none (none listed, or a tag such
 * as `latest` or `auto`: the registry's latest version is what runs). Every reading of a listed version (its
 * existence, deprecation and advisories) takes this one view of what is pinned.
 */
export function pinnedVersion(version: string | null): string | null {
  const v = (version ?? "").trim().replace(/^[=v]+/i, "");
  return /^\d/.test(v) ? v : null;
}

/**
 * SQL of pinnedVersion: NULL where it pins none, else the version without a leading `v` or `=` (what the
 * vulnerability look-up asks for: `v1.0.2` is the release `1.0.2`, which is the one advisories name).
 */
export function pinnedVersionSql(column: SQL): SQL {
  const bare = sql`regexp_replace(btrim(${column}), '^[=vV]+', '')`;
  return sql`case when ${bare} ~ '^[0-9]' then ${bare} end`;
}

function hasVersion(versions: Record<string, unknown>, pinned: string, ecosystem: string): boolean {
  return listedVersionKey(versions, pinned, ecosystem) !== null;
}

/**
 * The registry's own spelling of the pinned version among its versions (npm: exact, or with a leading `v`;
 * PyPI: also with more or fewer trailing `.0` release parts), null when it has none. Every per-version reading
 * (existence here, deprecation and yanks in listed-deprecation.ts) finds the release this one way.
 */
export function listedVersionKey(versions: Record<string, unknown>, pinned: string, ecosystem: string): string | null {
  if (Object.hasOwn(versions, pinned)) return pinned;
  if (Object.hasOwn(versions, `v${pinned}`)) return `v${pinned}`;
  if (ecosystem !== "pypkg" || !RELEASE.test(pinned)) return null;
  const release = trimZeros(pinned);
  return Object.keys(versions).find((k) => RELEASE.test(k) && trimZeros(k) === release) ?? null;
}

/** `1.0.0` → `1`, `1.02.0` → `1.2`: PEP 440 compares release segments as numbers, padded with zeros. */
function trimZeros(release: string): string {
  const parts = release.split(".").map((p) => p.replace(/^0+(?=\d)/, ""));
  while (parts.length > 1 && parts[parts.length - 1] === "0") parts.pop();
  return parts.join(".");
}
