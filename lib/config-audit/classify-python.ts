import { classifyMcpProxy } from "./classify-npm";
import { identity, localIdentity, otherIdentity, placeholderIdentity, unknownOptionIdentity, type LaunchContext } from "./identity";
import { isLaunchPlaceholder } from "./launch-placeholder";
import { parsePypiSpec } from "./package-specs";
import { doubtfulOption, readOption } from "./read-option";
import type { EntryIdentity } from "./types";

// uv / uvx options (layouts reference §5.4), from uv's CLI reference for `uv tool run` and its global options: the
// ones that take a value, and the switches. A value-taking option missing here read its value as the tool
// (`uvx --torch-backend auto pkg` was the PyPI package `auto`); an option in neither list, followed by a word, leaves
// the entry UNKNOWN.
const UV_WITH_VALUE = new Set([
  // tool run
  "--from", "--with", "-w", "--with-editable", "--with-requirements", "-c", "--constraints", "--overrides", "-b",
  "--build-constraints", "-p", "--python", "--python-platform", "--torch-backend", "--env-file",
  // index and resolver
  "--index", "--default-index", "-i", "--index-url", "--extra-index-url", "-f", "--find-links", "--index-strategy",
  "--keyring-provider", "--resolution", "--prerelease", "--fork-strategy", "--exclude-newer", "--exclude-newer-package",
  "-C", "--config-setting", "--config-settings-package", "--no-build-isolation-package", "--no-build-package",
  "--no-binary-package", "--no-sources-package", "--link-mode", "-P", "--upgrade-package", "--reinstall-package",
  "--refresh-package",
  // global
  "--cache-dir", "--python-preference", "--python-fetch", "--color", "--config-file", "--directory", "--project",
  "--allow-insecure-host", "--trusted-host", "--preview-features", "--generate-shell-completion",
]);

const UV_SWITCHES = new Set([
  "--isolated", "--show-resolution", "--lfs", "--no-index", "-U", "--upgrade", "--reinstall", "--refresh", "--no-refresh",
  "--no-build", "--build", "--no-binary", "--binary", "--no-build-isolation", "--build-isolation", "--no-sources",
  "--compile-bytecode", "--no-compile-bytecode", "--pre", "--no-env-file", "--managed-python", "--no-managed-python",
  "--no-python-downloads", "--allow-python-downloads", "-q", "--quiet", "-v", "--verbose", "--native-tls", "--no-native-tls",
  "--system-certs", "--offline", "--no-offline", "--preview", "--no-preview", "--no-config", "-n", "--no-cache", "--no-progress",
  "-h", "--help", "-V", "--version",
]);

const UV_OPTIONS = { withValue: UV_WITH_VALUE, switches: UV_SWITCHES };

/** uv / uvx options that install more packages beside the tool. */
const WITH_OPTIONS = new Set(["--with", "-w", "--with-editable", "--with-requirements"]);

/** Options that name where uv, uvx and pip fetch packages from (`--index` may be `name=url`). */
const INDEX_OPTIONS = new Set(["--index", "--default-index", "-i", "--index-url", "--extra-index-url", "-f", "--find-links"]);

/** The URL of an index option's value: uv's `--index` may be `name=url`. */
const indexUrl = (value: string) => value.trim().replace(/^[A-Za-z0-9_.-]+=(?=https?:)/, "");

/** PyPI's own index, which the catalog's PyPI evidence is about. */
export function isPublicPypiIndex(value: string): boolean {
  return /^https?:\/\/(pypi\.org|pypi\.python\.org)\/simple\/?$/i.test(indexUrl(value));
}

/**
 * A package fetched from another index than PyPI (`--index-url`, `--extra-index-url`, `--find-links`, …) may be
 * another package of the same name (uv even prefers an added index over PyPI): not the catalog's package.
 */
function otherIndexIdentity(launcher: string, spec: ReturnType<typeof parsePypiSpec>, indexes: string[], ctx: LaunchContext): EntryIdentity | null {
  const other = indexes.find((x) => !isPublicPypiIndex(x));
  if (other === undefined || spec.kind !== "registry") return null;
  return otherIdentity(
    spec.name,
    `${launcher} may fetch ${spec.name} from ${indexUrl(other)}, not only PyPI, which the catalog describes; a package of the same name there may be another package`,
    ctx,
  );
}

/** `uv [global options] <subcommand> …`: `tool run` is uvx; `run` runs a local project or script. */
export function classifyUv(args: string[], ctx: LaunchContext): EntryIdentity {
  let i = 0;
  while (i < args.length && args[i].startsWith("-")) {
    const opt = readOption(args, i, UV_OPTIONS);
    const doubtful = doubtfulOption(args, opt);
    if (doubtful) return unknownOptionIdentity("uv", doubtful, ctx);
    i = opt.next;
  }
  const sub = args[i];
  // global options (`uv --index-url X tool run pkg`) hold for the tool run too
  const globals = args.slice(0, i);
  if (sub === "tool" && (args[i + 1] === "run" || args[i + 1] === "uvx")) return classifyUvx("uv tool run", [...globals, ...args.slice(i + 2)], ctx);
  if (sub === "x") return classifyUvx("uv x", [...globals, ...args.slice(i + 1)], ctx);
  if (sub === "run") {
    const rest = args.slice(i + 1);
    let j = 0;
    while (j < rest.length && rest[j].startsWith("-")) j = readOption(rest, j, UV_OPTIONS).next;
    const target = rest[j] ?? "(the project)";
    return localIdentity(target, `uv run runs ${target} from a local project or script, not a published package`, ctx);
  }
  return otherIdentity("uv", `uv ${sub ?? ""} does not launch a published package`.replace(/\s+/g, " "), ctx);
}

/** `uvx [options] [--from SPEC] name[@version] [args]`. */
export function classifyUvx(launcher: string, args: string[], ctx: LaunchContext): EntryIdentity {
  let from: string | null = null;
  const indexes: string[] = [];
  // `--with X`: installed into the tool's environment beside it (a .pth file in X runs at every start)
  const extras: string[] = [];
  let i = 0;
  while (i < args.length) {
    const a = args[i];
    if (a === "--") {
      i++;
      break;
    }
    if (!a.startsWith("-") || a === "-") break;
    const opt = readOption(args, i, UV_OPTIONS);
    const doubtful = doubtfulOption(args, opt);
    if (doubtful) return unknownOptionIdentity(launcher, doubtful, ctx);
    const value = opt.value ?? "";
    if (opt.flag === "--from") from = opt.value;
    else if (INDEX_OPTIONS.has(opt.flag)) indexes.push(value);
    else if (WITH_OPTIONS.has(opt.flag)) {
      extras.push(...(opt.flag === "--with-requirements" ? [`the requirements in ${value}`] : value.split(",").map((x) => x.trim()).filter(Boolean)));
    }
    i = opt.next;
  }
  const tool = args[i];
  const serverArgs = args.slice(i + 1);
  if (!tool && !from) return otherIdentity(launcher, `${launcher} is called without a tool to run`, ctx);
  const spec = parsePypiSpec(from ?? tool!);
  const toolName = (tool ?? "").replace(/@.*$/, "").toLowerCase();
  if ((spec.kind === "registry" && spec.name.toLowerCase() === "mcp-proxy") || (!from && toolName === "mcp-proxy")) {
    return classifyMcpProxy(serverArgs, `${launcher} mcp-proxy`, ctx);
  }
  const found = otherIndexIdentity(launcher, spec, [...indexes, ...(ctx.sources?.pypi ?? [])], ctx) ?? pypiIdentity(launcher, spec, ctx);
  return extras.length && found.kind === "pypkg" ? { ...found, extras } : found;
}

function pypiIdentity(launcher: string, spec: ReturnType<typeof parsePypiSpec>, ctx: LaunchContext, confidence: "high" | "low" = "high", note: string | null = null): EntryIdentity {
  if (spec.kind === "git") return otherIdentity(spec.source, `${launcher} installs from the VCS source ${spec.source}; only registry packages can be tied to a catalog server`, ctx);
  if (spec.kind === "url") return otherIdentity(spec.source, `${launcher} installs from the URL ${spec.source}; only registry packages can be tied to a catalog server`, ctx);
  if (spec.kind === "local") return localIdentity(spec.source, `${launcher} runs the local package ${spec.source}`, ctx);
  if (spec.kind === "placeholder") return placeholderIdentity(spec.source, `the package ${launcher} runs`, ctx);
  return identity("pypkg", spec.name, ctx, { version: spec.version, confidence, note });
}

// `pipx run` options (pipx's `run --help`): those that take a value, and the switches.
const PIPX_OPTIONS = {
  withValue: new Set(["--spec", "--python", "--pip-args", "-i", "--index-url", "--backend"]),
  switches: new Set([
    "--no-cache", "--pypackages", "--path", "--system-site-packages", "-e", "--editable", "--fetch-missing-python", "-v",
    "--verbose", "-q", "--quiet", "-h", "--help",
  ]),
};

/** `pipx run [--spec SPEC] [--python P] [--pip-args A] APP …` → SPEC, else APP. */
export function classifyPipx(args: string[], ctx: LaunchContext): EntryIdentity {
  if (args[0] !== "run") return otherIdentity("pipx", `pipx ${args[0] ?? ""} does not launch a package`.trim(), ctx);
  let spec: string | null = null;
  const indexes: string[] = [];
  let i = 1;
  while (i < args.length && args[i].startsWith("-")) {
    if (args[i] === "--") {
      i++;
      break;
    }
    const opt = readOption(args, i, PIPX_OPTIONS);
    const doubtful = doubtfulOption(args, opt);
    if (doubtful) return unknownOptionIdentity("pipx run", doubtful, ctx);
    const value = opt.value ?? "";
    if (opt.flag === "--spec") spec = opt.value;
    else if (opt.flag === "--index-url" || opt.flag === "-i") indexes.push(value);
    else if (opt.flag === "--pip-args") indexes.push(...pipArgIndexes(value));
    i = opt.next;
  }
  const app = args[i];
  if (!spec && !app) return otherIdentity("pipx", "pipx run is called without an app", ctx);
  const parsed = parsePypiSpec(spec ?? app!);
  return otherIndexIdentity("pipx run", parsed, [...indexes, ...(ctx.sources?.pypi ?? [])], ctx) ?? pypiIdentity("pipx run", parsed, ctx);
}

/** The indexes in pipx's `--pip-args "…"` string (`--index-url X`, `--extra-index-url=X`, `-f X`). */
function pipArgIndexes(line: string): string[] {
  const words = line.trim().split(/\s+/);
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const eq = words[i].indexOf("=");
    const flag = eq > 0 ? words[i].slice(0, eq) : words[i];
    if (INDEX_OPTIONS.has(flag)) out.push(eq > 0 ? words[i].slice(eq + 1) : (words[++i] ?? ""));
  }
  return out;
}

/** The program names of Python interpreters: python, python3, python3.12, py, pypy3. */
export function isPythonProgram(program: string): boolean {
  return /^(python|py|pypy)(\d+(\.\d+)?)?w?$/.test(program);
}

/**
 * An interpreter inside a virtual environment: `<env>/bin/python` where the env directory is named like a
 * venv (`venv`, `.venv`, `env`, `.env`, `mcp-venv`, …) or sits in a directory of environments (conda's `envs`,
 * pipx's `venvs`, Poetry's and virtualenvwrapper's `virtualenvs`), or Windows' `<env>\Scripts\python.exe`
 * (an installed Python keeps python.exe beside Scripts, not in it). What it imports was installed into that
 * environment by hand: a local setup, not a published package (layouts reference §5.4).
 */
export function isVenvInterpreter(command: string): boolean {
  const dirs = command.replace(/\\/g, "/").toLowerCase().split("/").slice(0, -1);
  const [parent, env, bin] = dirs.slice(-3);
  if (bin === "scripts") return true;
  if (bin !== "bin" || !env) return false;
  return env.includes("venv") || env === "env" || env === ".env" || ["envs", "venvs", "virtualenvs", ".virtualenvs"].includes(parent ?? "");
}

/** The distribution `python -m module` most likely comes from: `pkg.server` / `pkg.__main__` name the package before them. */
function distributionOfModule(module: string): string {
  return module.replace(/\.(__main__|main|server|cli|app)$/, "").replace(/_/g, "-");
}

/**
 * `python [flags] -m module` → the PyPI distribution of the same name (a guess by name only: low
 * confidence), unless the interpreter is a virtual environment's (`venvInterpreter`, its path): then the
 * module is whatever was installed there, a local setup; `python file.py` → a local file; `python -c …` → other.
 */
export function classifyPython(program: string, args: string[], ctx: LaunchContext, venvInterpreter: string | null = null): EntryIdentity {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "-m" || (a.startsWith("-m") && a.length > 2 && !a.startsWith("--"))) {
      const module = a === "-m" ? args[i + 1] : a.slice(2);
      if (!module) break;
      if (isLaunchPlaceholder(module)) return placeholderIdentity(module, `the module ${program} -m runs`, ctx);
      const dist = distributionOfModule(module);
      if (venvInterpreter) {
        return localIdentity(
          `${venvInterpreter} -m ${module}`,
          `${program} -m ${module} runs a module installed in a local virtual environment, not a published package`,
          ctx,
          `if the module comes from the PyPI package ${dist}, audit \`uvx ${dist}\` to check the package`,
        );
      }
      return identity("pypkg", dist, ctx, {
        confidence: "low",
        note: `${program} -m ${module} names a module; the PyPI distribution ${dist} is a guess by name`,
      });
    }
    if (a === "-c") return otherIdentity(program, `${program} -c runs inline code`, ctx);
    if (a === "-X" || a === "-W" || a === "-Q") {
      i++;
      continue;
    }
    if (a.startsWith("-")) continue;
    return localIdentity(a, `${program} runs the local file ${a}`, ctx);
  }
  return otherIdentity(program, `${program} is called without a module or a file`, ctx);
}
