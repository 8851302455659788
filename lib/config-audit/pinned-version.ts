import type { Facts } from "@/lib/engine";
import { npmKey, pypiKey } from "./package-specs";
import type { EntryResolution } from "./types";

export interface UnevaluatedPin {
  /** The package as the entry names it. */
  identifier: string;
  /** The exact version the entry pins. */
  pinned: string;
  /** The version the catalog lists, which its evidence (deprecation, advisories) is about. */
  listed: string;
}

// Exact versions only: a tag (`latest`), a range (`^1`, `>=1`) or no version at all runs what the registry
// resolves it to, which for a listed server is normally the listed version; an exact pin runs that version.
const NPM_EXACT = /^[=v]?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)(?:\+[0-9A-Za-z.-]+)?$/;
const PEP440_EXACT = /^v?(\d+(?:\.\d+)*(?:(?:a|b|rc)\d+)?(?:\.post\d+)?(?:\.dev\d+)?)$/i;
/** `${VAR}`, `${env:VAR}`, `$VAR`, `%VAR%`: a variable the launching client or shell fills in (`${` as remote-url.ts's VARIABLE reads it). */
const LAUNCH_VARIABLE = /\$\{(?:[^$}]|\$(?!\{))*\}|\$[A-Za-z_]|%[A-Za-z_][A-Za-z0-9_]*%/;

/**
 * The exact version a resolved package entry pins, when it is not the version the catalog lists for that
 * package: the server's decision rests on evidence about the listed version (a deprecation, advisories
 * affecting it), so it says nothing about the pinned one. Null when the entry pins no exact version, pins the
 * listed one, or the catalog lists no version to compare with. A version a variable fills in at launch counts as
 * such a pin: it may be any version.
 */
export function unevaluatedPin(r: EntryResolution, facts: Facts | undefined): UnevaluatedPin | null {
  const requested = r.identity.version?.trim();
  if (!facts || !requested || !r.identifier || (r.resolvedBy !== "jspkg" && r.resolvedBy !== "pypkg")) return null;
  const npm = r.resolvedBy === "jspkg";
  const key = npm ? npmKey : pypiKey;
  const pkg = facts.packages.find((p) => p.ecosystem === r.resolvedBy && key(p.identifier) === key(r.identifier!));
  const listed = pkg?.version?.trim();
  if (!listed) return null;
  // a version filled in at launch (`pkg@${VERSION}`, `pkg==$V`) may be any version: the file does not show the listed one
  if (LAUNCH_VARIABLE.test(requested)) return { identifier: r.identifier, pinned: requested, listed };
  const exact = (npm ? NPM_EXACT : PEP440_EXACT).exec(requested);
  if (!exact) return null;
  const same = npm ? exact[1] === (NPM_EXACT.exec(listed)?.[1] ?? listed) : pep440Equal(exact[1], listed);
  return same ? null : { identifier: r.identifier, pinned: exact[1], listed };
}

/** PEP 440 `==`: release segments compare with zeros padded (`1.2` == `1.2.0`), case-insensitively. */
function pep440Equal(a: string, b: string): boolean {
  const norm = (v: string) => v.toLowerCase().replace(/^v/, "").replace(/^(\d+(?:\.\d+)*?)(?:\.0+)+(?=$|[a-z])/, "$1");
  return norm(a) === norm(b);
}
