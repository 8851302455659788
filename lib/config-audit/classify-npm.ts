import { identity, localIdentity, otherIdentity, type LaunchContext } from "./identity";
import { parseNpmSpec } from "./package-specs";
import type { EntryIdentity, PackageSources } from "./types";

// Options that take a value (space or `=` form); every other flag (-y, --yes, --no-install, --quiet, …) is a boolean.
const WITH_VALUE = new Set([
  "-p", "--package", "-c", "--call", "--shell-mode", "--shell", "--registry", "--cache", "--userconfig", "--prefix",
  "--loglevel", "--node-options", "-w", "--workspace", "--allow-build", "--dir", "-C", "--filter", "-F",
]);

interface NpmArgs {
  packages: string[];
  call: string | null;
  /** `--registry URL`: where the packages are fetched from (null: the default, normally the public npm registry). */
  registry: string | null;
  /** `--@scope:registry URL`: where that scope's packages are fetched from, by lower-case scope. */
  scopes: Record<string, string>;
  /** The first positional (package spec, or the bin name when --package was given) and what follows. */
  positional: string[];
}

/** Walks npx-style options up to the first positional (or `--`); see the layouts reference §5.3. */
export function parseNpmArgs(args: string[]): NpmArgs {
  const packages: string[] = [];
  let call: string | null = null;
  let registry: string | null = null;
  const scopes: Record<string, string> = {};
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a === "--") {
      i++;
      break;
    }
    if (!a.startsWith("-") || a === "-") break;
    const eq = a.indexOf("=");
    const flag = eq > 0 ? a.slice(0, eq) : a;
    const value = eq > 0 ? a.slice(eq + 1) : null;
    if (flag === "-p" || flag === "--package") {
      const v = value ?? args[++i];
      if (v !== undefined) packages.push(v);
    } else if (flag === "-c" || flag === "--call") {
      call = value ?? args[++i] ?? null;
    } else if (flag === "--registry") {
      registry = value ?? args[++i] ?? null;
    } else if (SCOPED_REGISTRY.test(flag)) {
      const v = value ?? args[++i];
      if (v !== undefined) scopes[SCOPED_REGISTRY.exec(flag)![1].toLowerCase()] = v;
    } else if (WITH_VALUE.has(flag) && value === null) {
      i++;
    }
    // booleans, `--x=y` and unknown flags take no value: an unknown flag followed by a package spec is read as boolean
  }
  return { packages, call, registry, scopes, positional: args.slice(i) };
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
export function classifyNpmLaunch(launcher: string, args: string[], ctx: LaunchContext): EntryIdentity {
  const parsed = parseNpmArgs(args);
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
