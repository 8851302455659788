/**
 * A launcher's options as its own parser knows them: those that take a value and the switches. Anything else is
 * unknown to the audit, and whether the word after it is its value or the package cannot be told from the file.
 */
export interface OptionTable {
  /** `--from`, `-p`: the value is the next word, or follows `=` (`--from=x`), or is glued to a short option (`-p3.12`). */
  withValue: ReadonlySet<string>;
  /** `--isolated`, `-q`: no value; short switches may be clustered (`-qq`, `-it`). */
  switches: ReadonlySet<string>;
}

export interface ReadOption {
  /** The option as written, without its `=value` (a cluster's option that takes the value, or the cluster). */
  flag: string;
  /** Its value, if it takes one (null when the command line ends first). */
  value: string | null;
  /** Where the next word to read is. */
  next: number;
  /** Whether the table knows the option; an unknown one is read as taking no value. */
  known: boolean;
}

/** Reads the option at `args[i]` (which starts with `-`) the way clap, pflag and getopt do. */
export function readOption(args: string[], i: number, table: OptionTable): ReadOption {
  const a = args[i];
  const eq = a.indexOf("=");
  if (a.startsWith("--") || a.length === 2 || (eq === 2 && !table.withValue.has(a.slice(0, 2)))) {
    const flag = eq > 0 ? a.slice(0, eq) : a;
    const inline = eq > 0 ? a.slice(eq + 1) : null;
    if (table.withValue.has(flag)) {
      return inline !== null ? { flag, value: inline, next: i + 1, known: true } : { flag, value: args[i + 1] ?? null, next: i + 2, known: true };
    }
    return { flag, value: inline, next: i + 1, known: table.switches.has(flag) };
  }
  // a short cluster: switches, then at most one option that takes the rest (`-p3.12`, `-eK=V`) or the next word (`-ie K`)
  for (let c = 1; c < a.length; c++) {
    const short = `-${a[c]}`;
    if (table.withValue.has(short)) {
      const rest = a.slice(c + 1).replace(/^=/, "");
      return rest ? { flag: short, value: rest, next: i + 1, known: true } : { flag: short, value: args[i + 1] ?? null, next: i + 2, known: true };
    }
    if (!table.switches.has(short)) return { flag: a, value: null, next: i + 1, known: false };
  }
  return { flag: a, value: null, next: i + 1, known: true };
}

/**
 * An option the table does not know, followed by a word that is not an option: the launcher may take that word as
 * the option's value, or as what it runs. Its flag, or null when the reading is not in doubt.
 */
export function doubtfulOption(args: string[], opt: ReadOption): string | null {
  if (opt.known || opt.value !== null) return null;
  const following = args[opt.next];
  return following !== undefined && !following.startsWith("-") ? opt.flag : null;
}
