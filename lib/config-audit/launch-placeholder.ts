import { VARIABLE } from "./remote-url";

/**
 * A word of a launch that the client or its shell fills in: `${VAR}`, `${env:VAR}`, `${input:id}`, `${{ secrets.X }}`,
 * `$VAR`, `%VAR%`, or a template left for the user (`{{pkg}}`, `<package>`). Only tested where a registry name failed
 * to parse: none of these characters is allowed in an npm or PyPI name or an image reference.
 */
const LAUNCH_TEMPLATE = new RegExp(`${VARIABLE.source}|\\{\\{[^{}]*\\}\\}|<[^<>\\s][^<>]*>`);

/**
 * Variables that hold a directory (VS Code's `${workspaceFolder}`, `${userHome}`, Claude Code's `${CLAUDE_PLUGIN_ROOT}`,
 * `$HOME`, `%USERPROFILE%`, a `…_DIR` or `…Path`): a word that starts with one is a local path whatever it holds.
 */
const DIRECTORY_VARIABLE =
  /^(?:\$\{(?:env:|input:)?([^}]+)\}|\$([A-Za-z_][A-Za-z0-9_]*)|%([A-Za-z_][A-Za-z0-9_]*)%)(?=$|[\\/])/;
const DIRECTORY_NAME = /^(workspaceFolder(:.*)?|workspaceRoot|userHome|fileDirname|fileWorkspaceFolder|cwd|PWD|USERPROFILE|APPDATA|LOCALAPPDATA|ProgramFiles|ProgramData|TMPDIR|TEMP|TMP)$|(dir|path|home|root|folder)$/i;

/** A path as written (absolute, relative, home-relative, a drive, `file:`), or one under a directory variable. */
export function isLocalPathWord(word: string): boolean {
  const w = word.trim();
  if (/^(\/|\.{1,2}[\\/]|~([\\/]|$)|[A-Za-z]:[\\/]|\\\\|file:)/.test(w)) return true;
  // `%TOOLS%\server.exe`: a backslash is never in a package name or image reference
  if (/^(\$\{[^}]*\}|\$[A-Za-z_][A-Za-z0-9_]*|%[A-Za-z_][A-Za-z0-9_]*%)\\/.test(w)) return true;
  const m = DIRECTORY_VARIABLE.exec(w);
  return m !== null && DIRECTORY_NAME.test(m[1] ?? m[2] ?? m[3]);
}

/**
 * A word in the package, image, module or program position that holds a variable or template and is not a local path:
 * what it names is known only once the client substitutes it (`npx -y ${input:pkg}`, `uvx {{pkg}}`, `docker run $IMAGE`).
 */
export function isLaunchPlaceholder(word: string): boolean {
  return LAUNCH_TEMPLATE.test(word) && !isLocalPathWord(word);
}
