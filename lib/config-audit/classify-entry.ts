import { classifyContainer } from "./classify-container";
import { BUN_OPTIONS, classifyMcpProxy, classifyNpmLaunch, classifySupergateway, isPublicNpmRegistry, NPM_OPTIONS, npmRegistryOf, NPX_OPTIONS, parseNpmArgs, PNPM_OPTIONS, YARN_OPTIONS } from "./classify-npm";
import { classifyPipx, classifyPython, classifyUv, classifyUvx, isPythonProgram, isVenvInterpreter } from "./classify-python";
import { ASSIGNMENT, dropAssignments, hideAssignedValues, isPathLike, looksLikeFile, programName, splitCommandLine } from "./command-line";
import { identity, installedNpmPackage, localIdentity, npmShimPackage, otherIdentity, placeholderIdentity, unknownOptionIdentity, type LaunchContext } from "./identity";
import { isLaunchPlaceholder } from "./launch-placeholder";
import { parseNpmSpec } from "./package-specs";
import { doubtfulOption, readOption, type OptionTable } from "./read-option";
import { checkRemoteUrl, isExampleHost, redactUrl, redactUrlText } from "./remote-url";
import type { ConfigEntry, EntryIdentity, PackageSources } from "./types";

/** Wrappers within wrappers deeper than this are not followed (a config never needs more than three). */
export const MAX_WRAPPER_DEPTH = 8;

/** A map key that is a canonical registry name: a reverse-DNS namespace, a slash, a name. */
export const CANONICAL_NAME = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+\/[A-Za-z0-9][A-Za-z0-9._-]*$/i;

/**
 * What one entry runs or connects to, from the file alone (layouts reference §4–§5): a remote URL (also
 * behind mcp-remote and similar bridges), an npm or PyPI package, a container image, a Smithery name, a
 * canonical name when nothing is launched, or a local/other launch that no catalog row can match. Wrappers
 * (`cmd /c`, `sh -c`, `wsl`, `env`, secret injectors, absolute launcher paths and Windows shims) are peeled.
 */
export function classifyEntry(entry: ConfigEntry): EntryIdentity {
  const root = { wrappers: [] as string[] };
  const bothNote = entry.url && entry.command ? bothUrlAndCommandNote(entry) : null;
  if (entry.url && usesUrl(entry)) return withNote(classifyRemote(entry.url, [], entry), bothNote ?? claudeDesktopRemoteNote(entry));
  if (entry.command) {
    const { argv, more } = commandArgv(entry.command, entry.args);
    if (more) return withNote(severalCommands("the command line", argv, more, root), bothNote);
    return withNote(classifyArgv(argv, [], 0, entry.packageSources), bothNote);
  }
  if (entry.extension) {
    return otherIdentity(
      entry.key,
      `a Zed extension (${entry.key}) provides this server; what it launches is not in the settings file`,
      root,
    );
  }
  if (CANONICAL_NAME.test(entry.key)) return identity("name", entry.key, root, { confidence: "medium" });
  return { ...identity("other", null, root), unresolvable: { code: "no_launch", summary: "the entry has neither a command nor a URL" } };
}

/**
 * Whether the client connects to the URL rather than launching the command. Gemini CLI picks httpUrl, then
 * url, then command (layouts reference §2.7); elsewhere a command wins unless the declared transport is remote.
 */
function usesUrl(entry: ConfigEntry): boolean {
  if (!entry.command || entry.layout === "gemini" || entry.urlField === "httpUrl") return true;
  return entry.transport !== null && entry.transport !== "stdio";
}

/** Names only the program: the rest of a command line written into `command` may hold a secret (`--api-key sk-…`). */
function bothUrlAndCommandNote(entry: ConfigEntry): string {
  // a path-like command line is kept whole (`/opt/My Tools/run --token x`): its program ends before the first option
  // or space of the file name, and what follows (an option's value, a positional secret) is never shown
  const first = commandArgv(entry.command!, entry.args).argv[0] ?? "";
  const program = programName(first.split(/\s+-/)[0]).split(/\s/)[0];
  const shown = program && !program.includes("=") ? ` (${program})` : "";
  const which = entry.layout === "gemini" ? "Gemini CLI uses the URL" : "clients differ in which they use";
  return `the entry has both a URL and a command${shown}; ${which}`;
}

/** Claude Desktop connects only local servers from its file: a remote entry there is never used (§2.1). */
function claudeDesktopRemoteNote(entry: ConfigEntry): string | null {
  if (entry.layout !== "claude-desktop") return null;
  return "Claude Desktop does not connect remote servers written in claude_desktop_config.json; add it as a connector in the app, or bridge it with `npx mcp-remote <url>`";
}

function withNote(id: EntryIdentity, note: string | null): EntryIdentity {
  if (!note) return id;
  return { ...id, note: id.note ? `${id.note}; ${note}` : note };
}

/** Launchers the dispatcher knows by name; a path-like command with spaces is split only when it starts with one. */
const KNOWN_PROGRAMS = new Set([
  "cmd", "powershell", "pwsh", "bash", "sh", "zsh", "dash", "ksh", "fish", "wsl", "env", "npx", "pnpx", "bunx", "npm", "pnpm",
  "yarn", "bun", "deno", "uvx", "uv", "pipx", "docker", "podman", "nerdctl", "node", "python", "python3", "py", "mise", "volta",
  "fnm", "asdf", "nvm",
]);

/**
 * `command` + `args` as one argv. A command with spaces and no args (`"command": "npx -y pkg"`) is split the
 * way the client's shell would, unless it is a path that merely contains spaces (`C:\Program Files\…\x.exe`).
 * `more` is what the line runs after its first command (`npx -y pkg && curl …`), when it runs more than one.
 */
function commandArgv(command: string, args: string[]): { argv: string[]; more: string | null } {
  if (args.length || !/\s/.test(command)) return { argv: [command, ...args], more: null };
  const windows = /\\/.test(command);
  const { words, rest } = splitCommandLine(command, { windows });
  if (!isPathLike(command) || KNOWN_PROGRAMS.has(programName(words[0] ?? ""))) {
    const more = rest ?? (!windows && hasCommandSubstitution(command) ? "$(…)" : null);
    return { argv: words.length ? words : [command], more };
  }
  return { argv: [command], more: null };
}

function classifyRemote(url: string, wrappers: string[], entry?: ConfigEntry): EntryIdentity {
  const ctx = { wrappers };
  const check = checkRemoteUrl(url);
  if (!check.ok) {
    const kind = check.code === "loopback_url" || check.code === "local_socket" ? "local" : "remote";
    // a URL that does not parse (`https://${input:host}/mcp?apiKey=…`, no scheme) is redacted as text, never echoed as written
    const id = identity(kind, redactUrlText(url.trim()), ctx);
    return { ...id, unresolvable: { code: check.code, summary: hideAssignedValues(check.summary) } };
  }
  const notes: string[] = [];
  if (entry?.transport === "http" || entry?.transport === "streamable-http" || entry?.transport === "streamablehttp") {
    if (/\/sse\/?$/i.test(check.url.pathname)) notes.push(`type ${entry.transport} with an /sse path: the transport and the URL disagree`);
  }
  if (isExampleHost(check.url.hostname)) notes.push(`${check.url.hostname} is a documentation host`);
  return identity("remote", redactUrl(check.url), ctx, { note: notes.join("; ") || null });
}

function classifyArgv(argv: string[], wrappers: string[], depth: number, sources?: PackageSources): EntryIdentity {
  const ctx: LaunchContext = {
    wrappers,
    sources,
    inner: (inner, wrapper) => {
      if (depth + 1 > MAX_WRAPPER_DEPTH) return otherIdentity(null, `wrappers are nested more than ${MAX_WRAPPER_DEPTH} deep`, { wrappers });
      if (!inner.length) return otherIdentity(wrapper, `${wrapper} is called without a command`, { wrappers });
      return classifyArgv(inner, [...wrappers, wrapper], depth + 1, sources);
    },
    line: (line, wrapper, opts = {}) => {
      const { words, rest } = commandOfLine(line, opts);
      // cmd.exe has no command substitution; POSIX shells and PowerShell (`$(…)`) do
      const more = rest ?? ((opts.substitution ?? true) && hasCommandSubstitution(line) ? "$(…)" : null);
      return more === null ? ctx.inner(words, wrapper) : severalCommands(wrapper, words, more, ctx);
    },
    remote: (url, wrapper) => classifyRemote(url, [...wrappers, wrapper]),
  };
  const [command, ...args] = argv;
  if (!command) return otherIdentity(null, "the command is empty", ctx);
  const program = programName(command);
  const shownProgram = isPathLike(command) ? `${program} (${command})` : program;

  switch (program) {
    case "cmd":
      return peelCmd(args, ctx);
    case "powershell":
    case "pwsh":
      return peelPowershell(program, args, ctx);
    case "bash":
    case "sh":
    case "zsh":
    case "dash":
    case "ksh":
    case "fish":
      return peelPosixShell(program, args, ctx);
    case "wsl":
      return ctx.inner(skipOptions(args, ["-d", "--distribution", "-u", "--user", "--cd", "--shell-type"], ["-e", "--exec", "--"]), program);
    case "env":
      return peelEnv(args, ctx);
    case "mise":
    case "volta":
    case "fnm":
    case "asdf":
    case "nvm":
      return peelVersionManager(program, args, ctx);
    case "sudo":
    case "doas":
    case "nice":
    case "nohup":
    case "exec":
    case "time":
    case "command":
      return ctx.inner(skipOptions(args, ["-u", "-g", "-n", "-C", "-h"], ["--"]), program);
    case "op":
    case "doppler":
    case "infisical":
    case "dotenv":
    case "dotenvx":
    case "with-env": {
      const dash = args.indexOf("--");
      if (dash >= 0) return ctx.inner(args.slice(dash + 1), `${program} … --`);
      if (program === "dotenv") return ctx.inner(skipOptions(args, ["-e", "-c", "-v"], []), program);
      return otherIdentity(program, `${program} is called without \`-- <command>\``, ctx);
    }
    case "npx":
      return classifyNpmLaunch(program, args, ctx, NPX_OPTIONS);
    case "pnpx":
    case "pnx":
      return classifyNpmLaunch(program, args, ctx, PNPM_OPTIONS);
    case "bunx":
      return classifyNpmLaunch(program, args, ctx, BUN_OPTIONS);
    case "npm": {
      // npm's options before the subcommand (`npm --registry X exec pkg`) hold for it
      const parsed = parseNpmArgs(args, NPM_OPTIONS);
      if (parsed.doubtful) return unknownOptionIdentity("npm", parsed.doubtful, ctx);
      const sub = args.length - parsed.positional.length;
      if (args[sub] === "exec" || args[sub] === "x") return classifyNpmLaunch(`npm ${args[sub]}`, [...args.slice(0, sub), ...args.slice(sub + 1)], ctx, NPM_OPTIONS);
      return localIdentity(`npm ${args[sub] ?? ""}`.trim(), `npm ${args[sub] ?? ""} runs a script of the local project`.replace(/\s+/g, " "), ctx);
    }
    case "pnpm":
    case "yarn": {
      const table = program === "pnpm" ? PNPM_OPTIONS : YARN_OPTIONS;
      const parsed = parseNpmArgs(args, table);
      if (parsed.doubtful) return unknownOptionIdentity(program, parsed.doubtful, ctx);
      if (parsed.positional[0] === "dlx") {
        const options = [
          ...parsed.packages.flatMap((p) => ["--package", p]),
          ...(parsed.registry !== null ? ["--registry", parsed.registry] : []),
          ...Object.entries(parsed.scopes).flatMap(([scope, url]) => [`--${scope}:registry`, url]),
        ];
        return classifyNpmLaunch(`${program} dlx`, [...options, ...parsed.positional.slice(1)], ctx, table);
      }
      return localIdentity(`${program} ${parsed.positional[0] ?? ""}`.trim(), `${program} ${parsed.positional[0] ?? ""} runs a script of the local project`.replace(/\s+/g, " "), ctx);
    }
    case "bun": {
      if (args[0] === "x") return classifyNpmLaunch("bun x", args.slice(1), ctx, BUN_OPTIONS);
      return runnerWithFile(shownProgram, args[0] === "run" ? args.slice(1) : args, ctx);
    }
    case "deno":
      return classifyDeno(args, ctx);
    case "uvx":
      return classifyUvx("uvx", args, ctx);
    case "uv":
      return classifyUv(args, ctx);
    case "pipx":
      return classifyPipx(args, ctx);
    case "docker":
    case "podman":
    case "nerdctl":
      return classifyContainer(program, args, ctx);
    case "mcp-remote":
      return args.find((a) => !a.startsWith("-")) ? ctx.remote(args.find((a) => !a.startsWith("-"))!, "mcp-remote") : otherIdentity("mcp-remote", "mcp-remote is called without a URL", ctx);
    case "supergateway":
      return classifySupergateway(args, "supergateway", ctx);
    case "mcp-proxy":
      return classifyMcpProxy(args, "mcp-proxy", ctx);
    case "node":
    case "nodejs":
    case "tsx":
    case "ts-node":
    case "esno":
    case "nodemon":
      return runnerWithFile(shownProgram, args, ctx);
    case "curl":
    case "wget":
    case "nc":
    case "ncat": {
      const target = args.find((a) => /^https?:\/\//i.test(a));
      return otherIdentity(
        program,
        `runs ${program}${target ? ` against ${redactUrlText(target)}` : ""}: a network command, not an MCP server launcher; it runs whenever the client loads this config`,
        ctx,
      );
    }
  }

  if (isPythonProgram(program)) return classifyPython(shownProgram, args, ctx, isVenvInterpreter(command) ? command : null);
  if (["php", "ruby", "perl", "java", "dotnet", "lua", "rscript", "julia", "elixir", "erl"].includes(program)) {
    return interpreterWithFile(shownProgram, program, args, ctx);
  }
  // `${input:server}`, `$MCP_CMD`, `{{command}}`: the program is chosen at launch (a variable before a path separator,
  // `${workspaceFolder}/bin/server`, is a directory: that program is local). A command line kept whole (`$CMD -y x`)
  // is shown by its program word alone: the rest may hold a secret.
  if (isLaunchPlaceholder(command) && !/[\\/]/.test(command)) {
    return placeholderIdentity(/^(?:\$?\{\{[^}]*\}\}|\S)+/.exec(command.trim())?.[0] ?? command, "the command", ctx);
  }
  if (isPathLike(command)) {
    const pkg = npmShimPackage(command) ?? installedNpmPackage(command);
    return localIdentity(
      command,
      `runs the local program ${command}`,
      ctx,
      pkg ? `it looks like an installed copy of npm package ${pkg}; audit \`npx -y ${pkg}\` to check the package` : null,
    );
  }
  return otherIdentity(program, `runs the program \`${program}\` found on PATH; which package installed it is not known from the file`, ctx);
}

/** `node [flags] file` and friends: the file is the server, the runner is not. */
function runnerWithFile(program: string, args: string[], ctx: LaunchContext): EntryIdentity {
  const withValue = new Set(["--import", "-r", "--require", "--loader", "--experimental-loader", "--env-file", "--tsconfig", "--conditions", "-C", "--inspect-port", "--title", "--max-old-space-size"]);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "-e" || a === "--eval" || a === "-p" || a === "--print") return otherIdentity(program, `${program} ${a} runs inline code`, ctx);
    if (a.startsWith("-")) {
      if (withValue.has(a)) i++;
      continue;
    }
    const pkg = installedNpmPackage(a);
    return localIdentity(
      a,
      `${program} runs the local file ${a}`,
      ctx,
      pkg ? `the file is inside an installed copy of npm package ${pkg}; audit \`npx -y ${pkg}\` to check the package` : null,
    );
  }
  return otherIdentity(program, `${program} is called without a file`, ctx);
}

/** `php file.phar` → local; `php artisan boost:mcp` → other (a command of the local project's framework). */
function interpreterWithFile(shown: string, program: string, args: string[], ctx: LaunchContext): EntryIdentity {
  let i = 0;
  while (i < args.length && args[i].startsWith("-")) i += program === "java" && (args[i] === "-cp" || args[i] === "-classpath") ? 2 : 1;
  const target = args[i];
  if (target && looksLikeFile(target)) return localIdentity(target, `${shown} runs the local file ${target}`, ctx);
  return otherIdentity(
    target ? `${program} ${target}` : program,
    `runs \`${[program, ...args.slice(0, 2)].join(" ")}\`, a command of a local ${program} project or tool, not a published MCP package`,
    ctx,
  );
}

/** `deno run [flags] npm:pkg` → jspkg; `jsr:`, URLs and files are not npm packages. */
function classifyDeno(args: string[], ctx: LaunchContext): EntryIdentity {
  const run = args[0] === "run" ? 1 : 0;
  const target = args.slice(run).find((a) => !a.startsWith("-"));
  if (!target) return otherIdentity("deno", "deno is called without a module", ctx);
  if (target.startsWith("npm:")) {
    const spec = parseNpmSpec(target);
    if (spec.kind === "registry") {
      // deno reads the registry from the environment too (NPM_CONFIG_REGISTRY, a scope's registry)
      const registry = npmRegistryOf(spec.name, ctx.sources);
      if (registry !== null && !isPublicNpmRegistry(registry)) {
        return otherIdentity(
          spec.name,
          `deno fetches ${spec.name} from the registry ${registry}, not the public npm registry the catalog describes; a package of the same name there may be another package`,
          ctx,
        );
      }
      return identity("jspkg", spec.name, ctx, { version: spec.version });
    }
    if (spec.kind === "placeholder") return placeholderIdentity(target, "the package deno runs", ctx);
  }
  if (/^(jsr:|https?:)/.test(target)) return otherIdentity(target, `deno runs ${target}, which is not an npm or PyPI package`, ctx);
  // `deno run ${SCRIPT}` may be filled in with a file, an `npm:` or `jsr:` specifier or a URL
  if (isLaunchPlaceholder(target)) return placeholderIdentity(target, "the module deno runs", ctx);
  return localIdentity(target, `deno runs the local file ${target}`, ctx);
}

/** `cmd [/s] [/q] /c <line>` (also `/k`): the rest is the real command, split if it was passed as one string. */
function peelCmd(args: string[], ctx: LaunchContext): EntryIdentity {
  const at = args.findIndex((a) => /^\/[ck]$/i.test(a));
  if (at < 0) return otherIdentity("cmd", "cmd is called without /c", ctx);
  const rest = args.slice(at + 1);
  // `cmd /c "npx -y pkg"`: the whole command line in one argument; cmd reads `&`, `|` in separate arguments too
  if (rest.length === 1 || rest.some((a) => /[&|]/.test(a))) {
    const line = cmdLine(rest.join(" "), args.slice(0, at).some((a) => /^\/s$/i.test(a)));
    return ctx.line(line, "cmd /c", { windows: true, substitution: false });
  }
  return ctx.inner(rest, "cmd /c");
}

/**
 * The line cmd.exe runs after `/c`. A line held whole in quotes (`"npx -y pkg"`, `""C:\…\npx.cmd" -y pkg"`) loses its
 * first and last quote, as cmd strips them (always under /s), unless, without /s, the two quotes hold the path of
 * one program (`"C:\Program Files\x\server.exe"`), which cmd runs as written. Kept, the quotes made the whole
 * line one word: the program `npx -y pkg`, never the npm package.
 */
function cmdLine(line: string, s: boolean): string {
  const t = line.trim();
  if (t.length < 2 || !t.startsWith('"') || !t.endsWith('"')) return line;
  const inner = t.slice(1, -1);
  if (!s && !inner.includes('"') && isPathLike(inner) && /\.(exe|com|cmd|bat)$/i.test(inner)) return line;
  return inner;
}

/** `export A=1;`, `set A=1&&`, `A=1;`: a first command that only sets variables, so the line runs the next one. */
function setsVariablesOnly(words: string[]): boolean {
  const assignments = /^(export|set|declare|readonly)$/i.test(words[0] ?? "") ? words.slice(1) : words;
  return assignments.every((w) => ASSIGNMENT.test(w));
}

/**
 * The argv a shell line runs: statements that only set variables are skipped, and `NAME=value` words before
 * the program dropped (`GITHUB_TOKEN=ghp_… npx -y pkg` runs `npx -y pkg`). Left in, such a word would be read as
 * the program, so the server would go unidentified and the secret be shown back as its name.
 */
function commandOfLine(line: string, opts: { windows?: boolean } = {}): { words: string[]; rest: string | null } {
  let split = splitCommandLine(line, opts);
  while (split.rest !== null && setsVariablesOnly(split.words)) split = splitCommandLine(split.rest, opts);
  return { words: dropAssignments(split.words), rest: split.rest };
}

/** `$(…)` or a backquote outside single quotes: the POSIX shell runs that command too, before the line's own. */
function hasCommandSubstitution(line: string): boolean {
  return /\$\(|`/.test(line.replace(/'[^']*'/g, ""));
}

/**
 * A shell line that runs more than one command (`npx -y pkg && curl … | sh`, `npx -y pkg; …`, `$(…)`): a script.
 * The catalog can vouch for one server, not for what else the line runs, so the entry is not tied to a server;
 * only program names are shown (the rest of the line may hold a secret).
 */
function severalCommands(wrapper: string, words: string[], more: string, ctx: { wrappers: string[] }): EntryIdentity {
  const first = programName(words[0] ?? "");
  const next = more === "$(…)" ? "a command substitution" : `\`${programName(dropAssignments(splitCommandLine(more).words)[0] ?? "") || "…"} …\``;
  return otherIdentity(
    first || wrapper,
    `${wrapper} runs more than one command (\`${first || "…"} …\` and ${next}): a script, not one published server; what else it runs is not audited`,
    ctx,
  );
}

/** `$env:NAME = 'value';` statements PowerShell runs before the command (the quoted value may hold `;`). */
const POWERSHELL_ENV_STATEMENT = /^\s*\$env:[A-Za-z_][A-Za-z0-9_]*\s*=\s*(?:'(?:[^']|'')*'|"(?:[^"`]|`.)*"|[^;\s]*)\s*;/i;

/** A PowerShell command line without its leading `$env:X=…;` statements. */
function skipPowershellEnv(line: string): string {
  let rest = line;
  for (let m = rest.match(POWERSHELL_ENV_STATEMENT); m; m = rest.match(POWERSHELL_ENV_STATEMENT)) rest = rest.slice(m[0].length);
  return rest;
}

function peelPowershell(program: string, args: string[], ctx: LaunchContext): EntryIdentity {
  for (let i = 0; i < args.length; i++) {
    const a = args[i].toLowerCase();
    if (a === "-command" || a === "-c") {
      const line = skipPowershellEnv(args.slice(i + 1).join(" "));
      return ctx.line(line, `${program} -Command`, { windows: true });
    }
    if (a === "-file" || a === "-f") return localIdentity(args[i + 1] ?? program, `${program} runs the local script ${args[i + 1] ?? ""}`.trim(), ctx);
    if (a === "-executionpolicy" || a === "-ep") i++;
  }
  return otherIdentity(program, `${program} is called without -Command or -File`, ctx);
}

/** `bash|sh|zsh -c "<line>"` (also -lc, -ic, `-l -c`) → the line, split; `bash script.sh` → a local script. */
function peelPosixShell(program: string, args: string[], ctx: LaunchContext): EntryIdentity {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (/^-[a-z]*c[a-z]*$/.test(a)) {
      const line = args[i + 1];
      if (line === undefined) return otherIdentity(program, `${program} -c is called without a command`, ctx);
      return ctx.line(line, `${program} ${a}`);
    }
    if (a === "-o" || a === "+o" || a === "--rcfile" || a === "--init-file") {
      i++;
      continue;
    }
    if (a.startsWith("-") || a.startsWith("+")) continue;
    return localIdentity(a, `${program} runs the local script ${a}`, ctx);
  }
  return otherIdentity(program, `${program} is called without a script or -c`, ctx);
}

/** `env [-i] [-u NAME] [NAME=value …] cmd …` → `cmd …`. */
function peelEnv(args: string[], ctx: LaunchContext): EntryIdentity {
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a === "-u" || a === "--unset" || a === "-C" || a === "--chdir") {
      i++;
      continue;
    }
    if (a === "-S" || a === "--split-string") return ctx.inner(splitCommandLine(args.slice(i + 1).join(" ")).words, "env -S");
    if (a === "--") {
      i++;
      break;
    }
    if (a.startsWith("-") || ASSIGNMENT.test(a)) continue;
    break;
  }
  return ctx.inner(args.slice(i), "env");
}

/**
 * Version managers' launch commands, the options of each (from its own help), and whether a bare version word may
 * come before the command (`nvm exec 20 npx …`); the command follows, after an optional `--` (mise requires it).
 */
const VERSION_MANAGERS: Record<string, { subs: string[]; options: OptionTable; versionWord?: boolean; dashRequired?: boolean }> = {
  mise: {
    subs: ["exec", "x"],
    options: { withValue: new Set(["-C", "--cd", "-j", "--jobs", "-c", "--command", "-E", "--env"]), switches: new Set(["--raw", "--no-prepare", "--fresh-env", "-q", "--quiet", "-v", "--verbose", "-y", "--yes", "-h", "--help"]) },
    dashRequired: true,
  },
  volta: {
    subs: ["run"],
    options: { withValue: new Set(["--node", "--npm", "--pnpm", "--yarn", "--env"]), switches: new Set(["--bundled-npm", "--no-yarn", "--no-pnpm", "--verbose", "--quiet", "-h", "--help"]) },
  },
  fnm: {
    subs: ["exec"],
    options: {
      withValue: new Set(["--using", "--log-level", "--arch", "--fnm-dir", "--node-dist-mirror", "--version-file-strategy"]),
      switches: new Set(["--using-file", "--corepack-enabled", "--resolve-engines", "-h", "--help"]),
    },
  },
  asdf: { subs: ["exec"], options: { withValue: new Set(), switches: new Set() } },
  nvm: { subs: ["exec"], options: { withValue: new Set(), switches: new Set(["--silent", "--lts"]) }, versionWord: true },
};

/** What `nvm exec` reads as a version before the command: `20`, `v20.1.0`, `lts/iron`, `node`, an alias of nvm's own. */
const NVM_VERSION = /^(v?\d+(\.\d+){0,2}|lts\/[\w*-]+|node|stable|iojs|default|system)$/i;

/**
 * `mise exec [tool@version …] -- cmd`, `volta run [--node v] cmd`, `fnm exec [--using v] [--] cmd`, `asdf exec cmd`,
 * `nvm exec [version] cmd`: the manager picks the runtime, the command is what runs.
 */
function peelVersionManager(program: string, args: string[], ctx: LaunchContext): EntryIdentity {
  const spec = VERSION_MANAGERS[program];
  const [sub, ...rest] = args;
  if (!spec.subs.includes(sub)) {
    return otherIdentity(`${program} ${sub ?? ""}`.trim(), `${program} ${sub ?? ""} does not launch a command through the version manager; it runs a task or tool of the local setup`.replace(/\s+/g, " "), ctx);
  }
  const wrapper = `${program} ${spec.subs[0]}`;
  const dash = rest.indexOf("--");
  let i = 0;
  while (i < rest.length && i !== dash && rest[i].startsWith("-")) {
    const opt = readOption(rest, i, spec.options);
    if (program === "mise" && (opt.flag === "-c" || opt.flag === "--command")) return ctx.line(opt.value ?? "", wrapper);
    // mise's tool@version words come before its `--`: an option there cannot be mistaken for the command
    if (!spec.dashRequired) {
      const doubtful = doubtfulOption(rest, opt);
      if (doubtful) return unknownOptionIdentity(wrapper, doubtful, ctx);
    }
    i = opt.next;
  }
  if (spec.dashRequired) {
    if (dash < 0) return otherIdentity(program, `${wrapper} is called without \`-- <command>\``, ctx);
    return ctx.inner(rest.slice(dash + 1), wrapper);
  }
  if (rest[i] === "--") i++;
  else if (spec.versionWord && NVM_VERSION.test(rest[i] ?? "")) i++;
  return ctx.inner(rest.slice(i), wrapper);
}

/** Drops leading options (those in `withValue` take the next word; `terminators` end the options). */
function skipOptions(args: string[], withValue: string[], terminators: string[]): string[] {
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (terminators.includes(a)) return args.slice(i + 1);
    if (!a.startsWith("-")) break;
    if (withValue.includes(a)) i++;
  }
  return args.slice(i);
}
