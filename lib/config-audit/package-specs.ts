// Package specs as launchers take them: npm (`@scope/name@1.2.3`, `npm:alias@v`, git and URL sources) and
// PyPI (PEP 508 requirements, `name@version` of uvx), plus the names they are compared by.
import { isLaunchPlaceholder, isLocalPathWord } from "./launch-placeholder";

export type NpmSpec =
  | { kind: "registry"; name: string; version: string | null }
  | { kind: "git"; source: string }
  | { kind: "url"; source: string }
  | { kind: "local"; source: string }
  /** A name the client fills in at launch (`${input:pkg}`, `@scope/${NAME}`, `{{pkg}}`); a variable only in the version is a version. */
  | { kind: "placeholder"; source: string };

/** npm names: lower-case letters, digits, `-._~`, optionally `@scope/`; at most 214 characters. */
const NPM_NAME = /^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9._~][a-z0-9._~-]*$/i;

export function parseNpmSpec(spec: string): NpmSpec {
  const s = spec.trim();
  if (/^(https?:)\/\//i.test(s)) return { kind: "url", source: s };
  if (/^(git\+|git:|github:|gitlab:|bitbucket:|gist:)/i.test(s) || /^git@/.test(s)) return { kind: "git", source: s };
  // an archive name is a local file unless a URL holds it (`name@https://…/x.tgz` is a download, read below)
  if (isLocalPathWord(s) || (/\.(tgz|tar\.gz)$/i.test(s) && !/:\/\//.test(s))) return { kind: "local", source: s };
  let body = s;
  // `alias@npm:real@1.0.0` installs `real`
  const alias = body.match(/^(@?[^@]+)@npm:(.+)$/);
  if (alias) body = alias[2];
  if (body.startsWith("npm:")) body = body.slice(4);
  const at = body.lastIndexOf("@");
  const name = at > 0 ? body.slice(0, at) : body;
  // `${SCOPE}/server` may be `@acme/server` or GitHub shorthand once filled in: not read as either
  if (isLaunchPlaceholder(name)) return { kind: "placeholder", source: s };
  // `owner/repo` without a leading @ is GitHub shorthand, not a scope
  if (!body.startsWith("@") && /^[^@/\s]+\/[^/\s]+$/.test(body)) return { kind: "git", source: `github:${body}` };
  let version = at > 0 ? body.slice(at + 1) || null : null;
  if (!NPM_NAME.test(name) || name.length > 214) return { kind: "local", source: s };
  if (version === "") version = null;
  // `name@github:o/r`, `name@o/r`, `name@git+https://…`, `name@file:../x`, `name@https://…/x.tgz`: npm installs `name`
  // from that source, not from the registry (a version, range or dist-tag never holds `:`, `/` or `\`)
  if (version && /[:/\\]/.test(version)) {
    const source = parseNpmSpec(version);
    return source.kind === "registry" ? { kind: "git", source: s } : { ...source, source: s };
  }
  return { kind: "registry", name, version };
}

/** How npm names are compared: case-insensitively (old packages kept capitals; new ones cannot). */
export function npmKey(name: string): string {
  return name.toLowerCase();
}

export type PypiSpec =
  | { kind: "registry"; name: string; version: string | null }
  | { kind: "git"; source: string }
  | { kind: "url"; source: string }
  | { kind: "local"; source: string }
  | { kind: "placeholder"; source: string };

/**
 * A PyPI requirement as uvx `--from`, pipx `--spec` or a uvx tool name write it: `pkg`, `pkg==1.2`,
 * `pkg[extra]>=1`, `pkg@1.2.3`, `pkg@latest`, `pkg @ git+https://…`, a VCS URL or a path.
 */
export function parsePypiSpec(spec: string): PypiSpec {
  const s = spec.trim();
  if (/^git\+|^(hg|svn|bzr)\+/i.test(s)) return { kind: "git", source: s };
  if (/^https?:\/\//i.test(s)) return { kind: "url", source: s };
  // an archive name is a local file unless a URL holds it (`name @ https://…/x.whl` is a download, read below)
  if (isLocalPathWord(s) || (/\.(whl|tar\.gz|zip)$/i.test(s) && !/:\/\//.test(s))) return { kind: "local", source: s };
  const direct = s.match(/^([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?\s*@\s*(git\+|https?:|file:)(.*)$/i);
  if (direct) return { kind: direct[3].toLowerCase().startsWith("git") ? "git" : direct[3].toLowerCase() === "file:" ? "local" : "url", source: s };
  // A version never starts with `=`: without the `(?!=)`, `>=1` also read as `>` then `=1` (and `===1` as `==`
  // then `=1`), two ways per clause, and a list of clauses that did not end well took exponential time.
  const m = s.match(/^([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)(\[[^\]]*\])?\s*(?:@\s*([^\s;]+)|((?:===|==|~=|!=|<=|>=|<|>)\s*(?!=)[^\s;,]+(?:\s*,\s*(?:===|==|~=|!=|<=|>=|<|>)\s*(?!=)[^\s;,]+)*))?\s*(;.*)?$/);
  if (!m) return isLaunchPlaceholder(s) ? { kind: "placeholder", source: s } : { kind: "local", source: s };
  // `==1.2` and `===1.2` (arbitrary equality) both pin one exact version: the bare version says so to the pin check
  const version = m[3] ?? (m[4] ? m[4].replace(/^===?\s*/, "").replace(/\s+/g, "") : null);
  return { kind: "registry", name: m[1], version };
}

/** PEP 503: lower-case, runs of `-`, `_` and `.` become one `-` (`awslabs.ecs-mcp-server` = `awslabs-ecs-mcp-server`). */
export function pypiKey(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, "-");
}
