import { identity, localIdentity, otherIdentity, placeholderIdentity, unknownOptionIdentity, type LaunchContext } from "./identity";
import { isLaunchPlaceholder } from "./launch-placeholder";
import { parseNpmSpec } from "./package-specs";
import { doubtfulOption, readOption, type OptionTable } from "./read-option";
import type { EntryIdentity, PackageSources } from "./types";

// npm reads every one of its configs as an option (`--cache /tmp/x`), so the options of `npx` and `npm exec` are its
// config definitions (npm 11's @npmcli/config): those whose type is not Boolean take a value, the others are switches.
const NPM_CONFIGS_WITH_VALUE = [
  "_auth", "access", "allow-directory", "allow-file", "allow-git", "allow-remote", "allow-scripts", "also",
  "audit-level", "auth-type", "before", "ca", "cache", "cache-max", "cache-min", "cafile", "call", "cert", "cidr",
  "cpu", "depth", "diff", "diff-dst-prefix", "diff-src-prefix", "diff-unified", "editor", "expect-result-count",
  "expires", "fetch-retries", "fetch-retry-factor", "fetch-retry-maxtimeout", "fetch-retry-mintimeout",
  "fetch-timeout", "git", "globalconfig", "heading", "https-proxy", "include", "init-author-email",
  "init-author-name", "init-author-url", "init-license", "init-module", "init-type", "init-version",
  "init.author.email", "init.author.name", "init.author.url", "init.license", "init.module", "init.version",
  "install-strategy", "key", "libc", "local-address", "location", "lockfile-version", "loglevel", "logs-dir",
  "logs-max", "name", "maxsockets", "message", "min-release-age", "min-release-age-exclude", "node-gyp",
  "node-options", "noproxy", "omit", "only", "orgs", "os", "otp", "package", "pack-destination", "packages",
  "prefix", "preid", "provenance-file", "proxy", "registry", "replace-registry-host", "save-prefix", "sbom-format",
  "sbom-type", "scope", "scopes", "packages-and-scopes-permission", "orgs-permission", "password",
  "token-description", "script-shell", "searchexclude", "searchlimit", "searchopts", "searchstaleness", "shell",
  "tag", "tag-version-prefix", "umask", "user-agent", "userconfig", "viewer", "which", "workspace",
];
const NPM_CONFIG_SWITCHES = [
  "all", "allow-same-version", "audit", "bin-links", "browser", "bypass-2fa", "color", "commit-hooks",
  "dangerously-allow-all-scripts", "description", "dev", "diff-ignore-all-space", "diff-name-only", "diff-no-prefix",
  "diff-text", "dry-run", "engine-strict", "expect-results", "force", "foreground-scripts", "format-package-lock",
  "fund", "git-tag-version", "global", "global-style", "if-present", "ignore-scripts", "include-staged",
  "include-workspace-root", "include-attestations", "init-private", "install-links", "json", "legacy-bundling",
  "legacy-peer-deps", "link", "long", "offline", "omit-lockfile-registry-resolved", "optional", "package-lock",
  "package-lock-only", "parseable", "allow-scripts-pending", "allow-scripts-pin", "prefer-dedupe", "prefer-offline",
  "prefer-online", "production", "progress", "provenance", "read-only", "rebuild-bundle", "save", "save-bundle",
  "save-dev", "save-exact", "save-optional", "save-peer", "save-prod", "packages-all", "shrinkwrap",
  "sign-git-commit", "sign-git-tag", "strict-peer-deps", "strict-allow-scripts", "strict-ssl", "timing", "unicode",
  "update-notifier", "usage", "version", "versions", "workspaces", "workspaces-update", "yes",
];

/** npm's options as `--name`, with the `--no-name` form of each switch. */
const npmLong = (names: string[], negated = false) => names.flatMap((n) => (negated ? [`--${n}`, `--no-${n}`] : [`--${n}`]));

/** npm's own shorthands (`-w` is --workspace, `-p` --parseable, `-q` --loglevel warn, …). */
const NPM_SHORT_WITH_VALUE = ["-c", "-w", "-C", "-L", "-m", "--reg", "--enjoy-by"];
const NPM_SHORT_SWITCHES = [
  "-a", "-d", "-q", "-s", "-n", "-f", "-g", "-l", "-p", "-S", "-B", "-D", "-E", "-O", "-P", "-H", "-h", "-v", "-y", "-?",
  "--dd", "--ddd", "--quiet", "--silent", "--verbose", "--desc", "--help", "--local", "--no", "--porcelain",
  "--readonly", "--iwr", "--ws", "--no-install",
];

/** `npm exec` / `npm x`, and npm's options before its subcommand. */
export const NPM_OPTIONS: OptionTable = {
  withValue: new Set([...npmLong(NPM_CONFIGS_WITH_VALUE), ...NPM_SHORT_WITH_VALUE]),
  switches: new Set([...npmLong(NPM_CONFIG_SWITCHES, true), ...NPM_SHORT_SWITCHES]),
};

/** The npx executable: npm's options, but `-p` is --package there, and a few removed npx options are still skipped. */
export const NPX_OPTIONS: OptionTable = {
  withValue: new Set([...NPM_OPTIONS.withValue, "-p", "--npm", "--node-arg", "-n"]),
  switches: new Set([...[...NPM_OPTIONS.switches].filter((o) => o !== "-p"), "--always-spawn", "--ignore-existing", "--shell-auto-fallback"]),
};

/** `pnpm [options] dlx [options]` and pnpx: pnpm's own options, and npm's configs, which pnpm reads too (`-w` is a switch there). */
export const PNPM_OPTIONS: OptionTable = {
  withValue: new Set([
    ...npmLong(NPM_CONFIGS_WITH_VALUE), "--package", "-c", "--shell-mode", "-C", "--dir", "-F", "--filter", "--allow-build",
    "--reporter", "--workspace-concurrency", "--store-dir", "--cache-dir", "--virtual-store-dir",
  ]),
  switches: new Set([
    ...npmLong(NPM_CONFIG_SWITCHES, true), "-s", "--silent", "-w", "--workspace-root", "-r", "--recursive", "--ignore-workspace",
    "--aggregate-output", "--use-stderr", "--stream", "--parallel", "--reporter-hide-prefix", "-h", "-v",
  ]),
};

/** `yarn dlx` (Yarn 2+, which refuses options it does not know). */
export const YARN_OPTIONS: OptionTable = {
  withValue: new Set(["-p", "--package", "--registry", "--cwd"]),
  switches: new Set(["-q", "--quiet", "-h", "--help"]),
};

/** `bunx` and `bun x` (`-y` is npx's, which bunx accepts). */
export const BUN_OPTIONS: OptionTable = {
  withValue: new Set(["-p", "--package", "--registry"]),
  switches: new Set(["--bun", "--silent", "--verbose", "--no-install", "-y", "--yes", "-h", "--help"]),
};

interface NpmArgs {
  packages: string[];
  call: string | null;
  /** `--registry URL`: where the packages are fetched from (null: the default, normally the public npm registry). */
  registry: string | null;
  /** `--@scope:registry URL`: where that scope's packages are fetched from, by lower-case scope. */
  scopes: Record<string, string>;
  /** The first positional (package spec, or the bin name when --package was given) and what follows. */
  positional: string[];
  /** An option the table does not know, followed by a word that may be its value or the package (the walk stops there). */
  doubtful: string | null;
}

/** Walks npx-style options up to the first positional (or `--`); see the layouts reference §5.3. */
export function parseNpmArgs(args: string[], table: OptionTable): NpmArgs {
  const packages: string[] = [];
  let call: string | null = null;
  let registry: string | null = null;
  const scopes: Record<string, string> = {};
  let i = 0;
  while (i < args.length) {
    const a = args[i];
    if (a === "--") {
      i++;
      break;
    }
    if (!a.startsWith("-") || a === "-") break;
    const scoped = SCOPED_REGISTRY.exec(a.split("=")[0]);
    if (scoped) {
      const v = a.includes("=") ? a.slice(a.indexOf("=") + 1) : args[++i];
      if (v !== undefined) scopes[scoped[1].toLowerCase()] = v;
      i++;
      continue;
    }
    const opt = readOption(args, i, table);
    const doubtful = doubtfulOption(args, opt);
    if (doubtful) return { packages, call, registry, scopes, positional: args.slice(i), doubtful };
    if (opt.flag === "-p" || opt.flag === "--package") {
      if (opt.value !== null && table.withValue.has(opt.flag)) packages.push(opt.value);
    } else if (opt.flag === "-c" || opt.flag === "--call" || opt.flag === "--shell-mode") {
      call = opt.value;
    } else if (opt.flag === "--registry" || opt.flag === "--reg") {
      registry = opt.value;
    }
    i = opt.next;
    // npm's switches take a following `true` or `false`, and --color `always`
    if (opt.value === null && (/^(true|false)$/.test(args[i] ?? "") || (opt.flag === "--color" && args[i] === "always"))) i++;
  }
  return { packages, call, registry, scopes, positional: args.slice(i), doubtful: null };
}

/** npm's per-scope registry option, `--@acme:registry`. */
const SCOPED_REGISTRY = /^--(@[^:/\s]+):registry$/;

/**
 * Where a launch fetches an npm package from, when the entry says (null: the public registry by default). A scope's
 * registry (`--@acme:registry`, `npm_config_@acme:registry`) wins over `--registry` for that scope's packages, and an
 * option over the entry's `env`, as in npm.
 */
export function npmRegistryOf(name: string, sources: PackageSources | undefined, parsed?: Pick<NpmArgs, "registry" | "scopes">): string | null {
  const scope = name.startsWith("@") && name.includes("/") ? name.slice(0, name.indexOf("/")).toLowerCase() : null;
  const scoped = scope ? (parsed?.scopes[scope] ?? sources?.npmScopes[scope]) : undefined;
  return scoped ?? parsed?.registry ?? sources?.npm ?? null;
}

/** Programs that run a file rather than being the server: `npx tsx server.ts` is a local file. */
const FILE_RUNNERS = new Set(["tsx", "ts-node", "ts-node-esm", "node", "esno", "esrun", "vite-node", "bun", "deno", "nodemon"]);

/**
 * npm-family launches: `npx`, `npm exec|x`, `pnpx`, `pnpm dlx`, `yarn dlx`, `bunx`, `bun x`. `args` is what
 * follows the launcher words. Bridges (mcp-remote, supergateway, mcp-proxy), Smithery's launcher, envmcp and
 * file runners are peeled; any other registry package is the identity.
 */
export function classifyNpmLaunch(launcher: string, args: string[], ctx: LaunchContext, table: OptionTable = NPX_OPTIONS): EntryIdentity {
  const parsed = parseNpmArgs(args, table);
  if (parsed.doubtful) return unknownOptionIdentity(launcher, parsed.doubtful, ctx);
  if (parsed.call && !parsed.positional.length) {
    return ctx.line(parsed.call, `${launcher} -c`);
  }
  const [first, ...rest] = parsed.positional;
  let spec: string | undefined;
  let serverArgs: string[];
  if (parsed.packages.length) {
    // `npx -p pkg bin args`: the bin names which package when several are given
    const bin = first;
    spec = parsed.packages.find((p) => parseNpmSpec(p).kind === "registry" && (parseNpmSpec(p) as { name: string }).name.split("/").pop() === bin) ?? parsed.packages[0];
    serverArgs = rest;
  } else {
    spec = first;
    serverArgs = rest;
  }
  if (!spec) return otherIdentity(launcher, `${launcher} is called without a package to run`, ctx);

  const pkg = parseNpmSpec(spec);
  if (pkg.kind === "url") {
    return otherIdentity(
      pkg.source,
      `${launcher} installs a package from the URL ${pkg.source}; that is a package download, not an MCP endpoint, and only registry packages can be tied to a catalog server`,
      ctx,
    );
  }
  if (pkg.kind === "git") {
    return otherIdentity(pkg.source, `${launcher} installs from the git source ${pkg.source}; only registry packages can be tied to a catalog server`, ctx);
  }
  if (pkg.kind === "local") return localIdentity(pkg.source, `${launcher} runs the local package ${pkg.source}`, ctx);
  if (pkg.kind === "placeholder") return placeholderIdentity(pkg.source, `the package ${launcher} runs`, ctx);

  const registry = npmRegistryOf(pkg.name, ctx.sources, parsed);
  if (registry !== null && !isPublicNpmRegistry(registry)) {
    return otherIdentity(
      pkg.name,
      `${launcher} fetches ${pkg.name} from the registry ${registry}, not the public npm registry the catalog describes; a package of the same name there may be another package`,
      ctx,
    );
  }
  const name = pkg.name.toLowerCase();
  const wrapped = (w: string) => `${launcher} ${w}`;
  if (FILE_RUNNERS.has(name)) {
    const file = serverArgs.find((a) => !a.startsWith("-"));
    return file
      ? localIdentity(file, `${launcher} ${pkg.name} runs the local file ${file}; the runner package is not the server`, ctx)
      : otherIdentity(pkg.name, `${launcher} ${pkg.name} runs a script, not a server package`, ctx);
  }
  if (name === "mcp-remote" || name === "@modelcontextprotocol/mcp-remote" || name === "remote-mcp") {
    const url = serverArgs.find((a) => !a.startsWith("-"));
    if (!url) return otherIdentity(pkg.name, `${launcher} ${pkg.name} is called without the URL it should proxy`, ctx);
    return ctx.remote(url, wrapped(pkg.name));
  }
  if (name === "supergateway") return classifySupergateway(serverArgs, wrapped(pkg.name), ctx);
  if (name === "mcp-proxy") return classifyMcpProxy(serverArgs, wrapped(pkg.name), ctx);
  if (name === "@smithery/cli" || name === "smithery") return classifySmithery(serverArgs, wrapped(pkg.name), ctx);
  if (name === "envmcp" || name === "dotenv-cli") {
    const inner = stripEnvLoader(serverArgs);
    if (inner.length) return ctx.inner(inner, wrapped(pkg.name));
  }
  // `npx -p other -p pkg pkg`: the other packages are installed too (their install scripts run)
  const extras = parsed.packages.filter((p) => p !== spec);
  return identity("jspkg", pkg.name, ctx, { version: pkg.version, extras });
}

/** The public npm registry (and yarn's alias of it), which the catalog's npm evidence is about. */
export function isPublicNpmRegistry(url: string): boolean {
  return /^https?:\/\/registry\.(npmjs\.org|yarnpkg\.com)\/?$/i.test(url.trim());
}

/** `envmcp [-e file|--env-file file] cmd …`, `dotenv [-e file] [--] cmd …` → `cmd …`. */
function stripEnvLoader(args: string[]): string[] {
  let i = 0;
  while (i < args.length && args[i].startsWith("-")) {
    if (args[i] === "--") return args.slice(i + 1);
    if (/^(-e|--env-file|-f|-c|-v)$/.test(args[i])) i += 2;
    else i++;
  }
  return args.slice(i);
}

/** `supergateway --sse <url>` / `--streamableHttp <url>` → the URL; `--stdio "<cmd>"` → the inner command. */
export function classifySupergateway(args: string[], wrapper: string, ctx: LaunchContext): EntryIdentity {
  const value = (flag: string) => {
    for (let i = 0; i < args.length; i++) {
      if (args[i] === flag) return args[i + 1] ?? null;
      if (args[i].startsWith(`${flag}=`)) return args[i].slice(flag.length + 1);
    }
    return null;
  };
  const url = value("--sse") ?? value("--streamableHttp") ?? value("--streamable-http");
  if (url) return ctx.remote(url, wrapper);
  const stdio = value("--stdio");
  if (stdio) return ctx.line(stdio, wrapper);
  return otherIdentity("supergateway", `${wrapper} is called without --sse, --streamableHttp or --stdio`, ctx);
}

/** `mcp-proxy <url> [options]` → the URL; `mcp-proxy [options] -- <cmd>` or `mcp-proxy <cmd> <args>` → the command. */
export function classifyMcpProxy(args: string[], wrapper: string, ctx: LaunchContext): EntryIdentity {
  const dash = args.indexOf("--");
  if (dash >= 0 && dash + 1 < args.length) return ctx.inner(args.slice(dash + 1), wrapper);
  const valued = new Set(["--headers", "-H", "--transport", "--port", "--host", "--sse-port", "--sse-host", "--pass-environment", "--allow-origin", "--named-server", "--named-server-config", "--stateless", "-e", "--env", "--cwd"]);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a.startsWith("-")) {
      if (valued.has(a)) i += a === "--headers" || a === "-H" || a === "-e" || a === "--env" ? 2 : 1;
      continue;
    }
    if (/^https?:\/\//i.test(a) || /^\$\{/.test(a)) return ctx.remote(a, wrapper);
    return ctx.inner(args.slice(i), wrapper);
  }
  return otherIdentity("mcp-proxy", `${wrapper} is called without a URL or command`, ctx);
}

/** Options of `smithery run` that take a value: the key and profile are secrets, the config JSON often holds some. */
const SMITHERY_WITH_VALUE = new Set(["--key", "--config", "--profile", "--api-key"]);

/** `@smithery/cli … run <qualified name>`: the identity is the Smithery name; the npm package is only the launcher. */
function classifySmithery(args: string[], wrapper: string, ctx: LaunchContext): EntryIdentity {
  const run = args.indexOf("run");
  const name = run >= 0 ? smitheryServerName(args.slice(run + 1)) : null;
  if (!name) return otherIdentity("@smithery/cli", `${wrapper} is not called with \`run <server>\``, ctx);
  if (isLaunchPlaceholder(name)) return placeholderIdentity(name, "the Smithery server it runs", { wrappers: [...ctx.wrappers, wrapper] });
  return identity("smithery", name, { wrappers: [...ctx.wrappers, wrapper] }, { confidence: "medium" });
}

/** The first positional after `run`, past option values: `run --key <uuid> @o/n` names `@o/n`, never the key. */
function smitheryServerName(args: string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith("-")) return a;
    if (SMITHERY_WITH_VALUE.has(a)) i++;
  }
  return null;
}
