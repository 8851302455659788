/**
 * Splits a shell command line into words. POSIX rules by default (single quotes literal, double quotes with
 * backslash escapes, backslash escapes outside quotes); `windows` keeps backslashes literal (they are path
 * separators to cmd.exe) and only double quotes group. Operators (`&&`, `||`, `;`, `|`, `&`, a line break) end
 * the first command: what follows them is returned in `rest`, so a caller can tell that the line runs more than
 * one program. `&` inside a redirection (`2>&1`, `&>log`) is not one.
 */
export function splitCommandLine(line: string, opts: { windows?: boolean } = {}): { words: string[]; rest: string | null } {
  const words: string[] = [];
  let cur = "";
  let inWord = false;
  let quote: '"' | "'" | null = null;
  // where the text that is not white space ends: a line break before it ends the command (`line.slice(i).trim()`
  // at each line break read the whole rest again: quadratic in a line of many blank lines)
  const end = line.trimEnd().length;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = null;
      else if (c === "\\" && quote === '"' && !opts.windows && i + 1 < line.length && '"\\$`'.includes(line[i + 1])) cur += line[++i];
      else cur += c;
      continue;
    }
    if (c === '"' || (c === "'" && !opts.windows)) {
      quote = c;
      inWord = true;
    } else if (c === "\\" && !opts.windows && line[i + 1] === "\n") {
      i++; // a line continuation
    } else if (c === "\\" && !opts.windows && i + 1 < line.length) {
      cur += line[++i];
      inWord = true;
    } else if (c === "\n" && i < end) {
      if (inWord) words.push(cur);
      return { words, rest: line.slice(i).trim() };
    } else if (c === " " || c === "\t" || c === "\n" || c === "\r") {
      if (inWord) words.push(cur);
      cur = "";
      inWord = false;
    } else if (c === ";" || c === "|" || (c === "&" && !/[<>]$/.test(cur) && line[i + 1] !== ">")) {
      if (inWord) words.push(cur);
      return { words, rest: line.slice(i).replace(/^[;|&]+/, "").trim() || null };
    } else {
      cur += c;
      inWord = true;
    }
  }
  if (inWord) words.push(cur);
  return { words, rest: null };
}

/** The program name of a launcher path: directory and Windows extension dropped, lower-case (`C:\…\npx.cmd` → `npx`). */
export function programName(command: string): string {
  const base = command.replace(/\\/g, "/").split("/").pop() ?? command;
  return base.toLowerCase().replace(/\.(exe|cmd|bat|ps1|com)$/, "");
}

/** A command given as a path (absolute, relative, home-relative or with a variable), not a bare program name. */
export function isPathLike(s: string): boolean {
  return /^(\/|\.{1,2}[\\/]|~[\\/]?|[A-Za-z]:[\\/]|\\\\|\$\{|\$[A-Za-z_]|%[A-Za-z_]+%)/.test(s) || /[\\/]/.test(s);
}

/** A token that names a file to run: a path, or a name with a script or program extension. */
export function looksLikeFile(s: string): boolean {
  return isPathLike(s) || /\.(py|pyw|js|mjs|cjs|ts|mts|cts|jsx|tsx|sh|bash|zsh|ps1|rb|pl|php|phar|jar|exe|bin|lua|dll)$/i.test(s);
}

/** `NAME=value` before a command (`env`, a shell line): sets a variable for it, and its value is often a secret. */
export const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** The words from the first that is not a `NAME=value` assignment: the command those assignments are for. */
export function dropAssignments(words: string[]): string[] {
  const at = words.findIndex((w) => !ASSIGNMENT.test(w));
  return at < 0 ? [] : words.slice(at);
}

/**
 * Text as it may be shown back: in every word with `=` that is not a URL (`TOKEN=ghp_…`, `--api-key=sk-…`,
 * `-Dkey=…`), what follows the `=` is replaced by `…`, and a word that does not start with a name loses
 * everything. Config files put secrets in such words, and the service promises never to echo a secret.
 */
export function hideAssignedValues(text: string): string {
  return text
    // each word whole, then whether it has `=`: `[^…]*=[^…]*` scanned from every position of a long word without one
    // to its end (seconds for 20 KB, minutes for a 256 KiB body)
    .replace(/[^\s`'"()]+/g, (word) => {
      if (!word.includes("=") || word.includes("://")) return word;
      const name = word.match(/^-{0,2}[A-Za-z_][A-Za-z0-9_.-]*=/);
      return name ? `${name[0]}…` : "…";
    })
    .replace(FLAG_AND_VALUE, (all, flag: string, name: string) => (SECRET_NAME.test(name) ? `${flag}…` : all));
}

/**
 * A secret-named option and the word after it (`--password hunter2`, `--api-key sk-…`, `-token x`): a command
 * line kept whole (a `command` that may be a path with spaces) would otherwise show the value.
 */
const FLAG_AND_VALUE = /(\s-{1,2}([A-Za-z0-9_.-]+)\s+)(?!-)[^\s`'"()]+/g;
// the secret words are looked for in each option's name once it is cut out: around a `*` in the pattern they made it
// try every split of a long option (`-tokentoken…`), seconds for 100 KB
const SECRET_NAME = /token|key|secret|passw|pwd|auth|credential/i;
