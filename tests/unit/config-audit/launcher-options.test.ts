import { describe, expect, it } from "vitest";
import { classifyEntry, type ConfigEntry } from "@/lib/config-audit";

// How each launcher's options are read: a value-taking option's value is never the package or image, and an
// option the audit does not know, followed by a word, leaves the entry UNKNOWN rather than a guess.

function entry(over: Partial<ConfigEntry>): ConfigEntry {
  return { key: "k", mapKey: "mcpServers", layout: "mcp-servers", honoured: true, disabled: false, command: null, args: [], url: null, urlField: null, transport: null, extension: false, gallery: false, ...over };
}
const run = (argv: string[]) => classifyEntry(entry({ command: argv[0], args: argv.slice(1) }));
const brief = (argv: string[]) => {
  const id = run(argv);
  return [id.kind, id.identifier, id.version];
};

describe("uvx options that take a value", () => {
  it.each([
    ["uvx", "--torch-backend", "auto", "mcp-server-x"],
    ["uvx", "--python-preference", "only-managed", "mcp-server-x"],
    ["uvx", "--index-strategy", "unsafe-best-match", "mcp-server-x"],
    ["uvx", "--exclude-newer", "2025-01-01", "mcp-server-x"],
    ["uvx", "--exclude-newer-package", "foo=2025-01-01", "mcp-server-x"],
    ["uvx", "--python-platform", "linux", "mcp-server-x"],
    ["uvx", "-p", "3.12", "mcp-server-x"],
    ["uvx", "-p3.12", "mcp-server-x"],
    ["uvx", "--python=3.12", "mcp-server-x"],
    ["uvx", "--allow-insecure-host", "files.example.org", "mcp-server-x"],
    ["uvx", "-C", "key=value", "mcp-server-x"],
    ["uvx", "--config-setting", "key=value", "mcp-server-x"],
    ["uvx", "--no-build-package", "numpy", "mcp-server-x"],
    ["uvx", "--no-binary-package", "numpy", "mcp-server-x"],
    ["uvx", "--overrides", "o.txt", "mcp-server-x"],
    ["uvx", "--preview-features", "json-output", "mcp-server-x"],
    ["uvx", "-qq", "--isolated", "--refresh", "mcp-server-x"],
    ["uvx", "--offline", "--no-cache", "-n", "--native-tls", "mcp-server-x"],
    ["uv", "--python-preference", "only-managed", "tool", "run", "mcp-server-x"],
    ["uv", "tool", "run", "--torch-backend", "auto", "mcp-server-x"],
  ])("%s … → mcp-server-x", (...argv) => {
    expect(brief(argv)).toEqual(["pypkg", "mcp-server-x", null]);
  });

  it("reads --with-editable as an extra package, never as the tool", () => {
    expect(run(["uvx", "--with-editable", "./x", "mcp-server-x"])).toMatchObject({ kind: "pypkg", identifier: "mcp-server-x", extras: ["./x"] });
  });

  it.each([
    [["uvx", "--frobnicate", "auto", "mcp-server-x"], "--frobnicate"],
    [["uv", "tool", "run", "--frobnicate", "auto", "mcp-server-x"], "--frobnicate"],
    [["uv", "--frobnicate", "auto", "tool", "run", "mcp-server-x"], "--frobnicate"],
    [["uvx", "-Z", "auto", "mcp-server-x"], "-Z"],
  ])("%j: an unknown option followed by a word is UNKNOWN, naming %s", (argv, option) => {
    const id = run(argv);
    expect(id).toMatchObject({ kind: "other", unresolvable: { code: "unknown_option", summary: expect.stringContaining(option) } });
    expect(id.identifier).not.toBe("auto");
  });

  it("an unknown option written with its value (`--x=y`), or followed by another option, leaves the tool known", () => {
    expect(brief(["uvx", "--frobnicate=auto", "mcp-server-x"])).toEqual(["pypkg", "mcp-server-x", null]);
    expect(brief(["uvx", "--frobnicate", "--from", "mcp-server-x", "x"])).toEqual(["pypkg", "mcp-server-x", null]);
  });
});

describe("npm-family options that take a value", () => {
  it.each([
    [["npx", "--package=x-mcp", "x"], ["jspkg", "x-mcp", null]],
    [["npx", "-p", "x-mcp", "x"], ["jspkg", "x-mcp", null]],
    [["npm", "exec", "--package", "x-mcp", "--", "x"], ["jspkg", "x-mcp", null]],
    [["npm", "exec", "--package=x-mcp", "--", "x"], ["jspkg", "x-mcp", null]],
    // npm's own `-p` is --parseable (a switch); only the npx executable reads it as --package
    [["npm", "exec", "-p", "x-mcp", "--", "x"], ["jspkg", "x-mcp", null]],
    [["npm", "exec", "-p", "--", "x-mcp"], ["jspkg", "x-mcp", null]],
    [["pnpm", "--package=x-mcp", "dlx", "x"], ["jspkg", "x-mcp", null]],
    [["pnpm", "dlx", "--package", "x-mcp", "x"], ["jspkg", "x-mcp", null]],
    [["yarn", "dlx", "-p", "x-mcp", "x"], ["jspkg", "x-mcp", null]],
    [["bunx", "-p", "x-mcp", "x"], ["jspkg", "x-mcp", null]],
    // npm config options that take a value (npm reads every config as an option)
    [["npx", "--cache", "/tmp/npm", "-y", "x-mcp"], ["jspkg", "x-mcp", null]],
    [["npx", "--loglevel", "silent", "x-mcp"], ["jspkg", "x-mcp", null]],
    [["npx", "--prefix", "/opt", "x-mcp"], ["jspkg", "x-mcp", null]],
    [["npx", "--before", "2025-01-01", "x-mcp"], ["jspkg", "x-mcp", null]],
    [["npx", "--node-options", "--max-old-space-size=4096", "x-mcp"], ["jspkg", "x-mcp", null]],
    [["npx", "--fetch-timeout", "60000", "x-mcp"], ["jspkg", "x-mcp", null]],
    [["npx", "--script-shell", "bash", "x-mcp"], ["jspkg", "x-mcp", null]],
    [["npx", "--omit", "dev", "x-mcp"], ["jspkg", "x-mcp", null]],
    [["npx", "-L", "global", "x-mcp"], ["jspkg", "x-mcp", null]],
    [["npx", "--color", "always", "x-mcp"], ["jspkg", "x-mcp", null]],
    [["npx", "--prefer-offline", "--ignore-scripts", "-q", "x-mcp"], ["jspkg", "x-mcp", null]],
    [["npm", "--registry", "https://registry.npmjs.org/", "exec", "x-mcp"], ["jspkg", "x-mcp", null]],
    [["npm", "--loglevel", "silent", "exec", "--", "x-mcp"], ["jspkg", "x-mcp", null]],
    [["pnpm", "--dir", "/tmp", "dlx", "x-mcp"], ["jspkg", "x-mcp", null]],
    [["pnpm", "--reporter", "silent", "dlx", "x-mcp"], ["jspkg", "x-mcp", null]],
  ])("%j → %j", (argv, expected) => {
    expect(brief(argv)).toEqual(expected);
  });

  it("npm options before `exec` hold for the launch: a private --registry there is not the public package", () => {
    expect(run(["npm", "--registry", "https://npm.attacker.dev", "exec", "x-mcp"])).toMatchObject({ kind: "other", unresolvable: { code: "not_a_registry_artifact" } });
  });

  it.each([
    [["npx", "--frobnicate", "auto", "x-mcp"], "--frobnicate"],
    [["npm", "exec", "--frobnicate", "auto", "--", "x-mcp"], "--frobnicate"],
    [["pnpm", "dlx", "--frobnicate", "auto", "x-mcp"], "--frobnicate"],
    [["yarn", "dlx", "--frobnicate", "auto", "x-mcp"], "--frobnicate"],
    [["bunx", "--frobnicate", "auto", "x-mcp"], "--frobnicate"],
  ])("%j: an unknown option followed by a word is UNKNOWN, naming %s", (argv, option) => {
    expect(run(argv)).toMatchObject({ kind: "other", unresolvable: { code: "unknown_option", summary: expect.stringContaining(option) } });
  });
});

describe("pipx run and docker run options that take a value", () => {
  it.each([
    [["pipx", "run", "--spec", "x-mcp", "y"], ["pypkg", "x-mcp", null]],
    [["pipx", "run", "--python", "3.12", "x-mcp"], ["pypkg", "x-mcp", null]],
    [["pipx", "run", "--python=3.12", "-q", "x-mcp"], ["pypkg", "x-mcp", null]],
    [["pipx", "run", "--no-cache", "--system-site-packages", "x-mcp"], ["pypkg", "x-mcp", null]],
    [["docker", "run", "-i", "--env-file", "f", "mcp/x:1"], ["oci", "docker.io/mcp/x:1", "1"]],
    [["docker", "run", "-i", "-e", "K=V", "mcp/x:1"], ["oci", "docker.io/mcp/x:1", "1"]],
    [["docker", "run", "-i", "--network", "host", "mcp/x:1"], ["oci", "docker.io/mcp/x:1", "1"]],
    [["docker", "run", "-i", "--platform", "linux/amd64", "mcp/x:1"], ["oci", "docker.io/mcp/x:1", "1"]],
    [["docker", "run", "-it", "-eK=V", "mcp/x:1"], ["oci", "docker.io/mcp/x:1", "1"]],
    // a cluster whose last letter takes a value takes the next word (`-ie K` is `-i -e K`)
    [["docker", "run", "-ie", "K", "mcp/x:1"], ["oci", "docker.io/mcp/x:1", "1"]],
  ])("%j → %j", (argv, expected) => {
    expect(brief(argv)).toEqual(expected);
  });

  it.each([
    [["pipx", "run", "--frobnicate", "auto", "x-mcp"], "--frobnicate"],
    [["docker", "run", "-i", "--frobnicate", "auto", "mcp/x:1"], "--frobnicate"],
    [["podman", "run", "-i", "-Z", "auto", "mcp/x:1"], "-Z"],
  ])("%j: an unknown option followed by a word is UNKNOWN, naming %s", (argv, option) => {
    const id = run(argv);
    expect(id).toMatchObject({ kind: "other", unresolvable: { code: "unknown_option", summary: expect.stringContaining(option) } });
    expect(id.identifier).not.toMatch(/auto/);
  });
});

describe("cmd /c with the command line inside literal quotes", () => {
  it.each([
    [["cmd", "/s", "/c", "\"npx -y x-mcp\""]],
    [["cmd", "/c", "\"npx -y x-mcp\""]],
    [["cmd.exe", "/S", "/C", "\"npx -y x-mcp\""]],
    // the usual form for a launcher path with spaces: the whole line quoted once more
    [["cmd", "/s", "/c", "\"\"C:\\Program Files\\nodejs\\npx.cmd\" -y x-mcp\""]],
  ])("%j → the npm package", (argv) => {
    expect(run(argv)).toMatchObject({ kind: "jspkg", identifier: "x-mcp", wrappers: ["cmd /c"] });
  });

  it("keeps a quoted program path without /s whole (cmd runs it as the one executable it names)", () => {
    expect(run(["cmd", "/c", "\"C:\\Program Files\\My Tool\\server.exe\""])).toMatchObject({ kind: "local", identifier: "C:\\Program Files\\My Tool\\server.exe" });
  });

  it("still sees a second command once the quotes are gone", () => {
    expect(run(["cmd", "/c", "\"npx -y x-mcp & calc.exe\""])).toMatchObject({ kind: "other", unresolvable: { summary: expect.stringMatching(/more than one command/) } });
  });
});

describe("version-manager launchers are peeled", () => {
  it.each([
    [["mise", "exec", "--", "npx", "-y", "x-mcp"], ["jspkg", "x-mcp", null], ["mise exec"]],
    [["mise", "x", "node@20", "--", "npx", "-y", "x-mcp"], ["jspkg", "x-mcp", null], ["mise exec"]],
    [["mise", "exec", "-C", "/repo", "python@3.12", "--", "uvx", "mcp-server-git"], ["pypkg", "mcp-server-git", null], ["mise exec"]],
    [["mise", "exec", "-c", "npx -y x-mcp"], ["jspkg", "x-mcp", null], ["mise exec"]],
    [["volta", "run", "npx", "x-mcp"], ["jspkg", "x-mcp", null], ["volta run"]],
    [["volta", "run", "--node", "20", "--env", "A=1", "npx", "-y", "x-mcp"], ["jspkg", "x-mcp", null], ["volta run"]],
    [["fnm", "exec", "--", "npx", "x-mcp"], ["jspkg", "x-mcp", null], ["fnm exec"]],
    [["fnm", "exec", "--using", "20", "npx", "x-mcp"], ["jspkg", "x-mcp", null], ["fnm exec"]],
    [["fnm", "exec", "--using=20", "--", "npx", "x-mcp"], ["jspkg", "x-mcp", null], ["fnm exec"]],
    [["asdf", "exec", "npx", "-y", "x-mcp"], ["jspkg", "x-mcp", null], ["asdf exec"]],
    [["nvm", "exec", "20", "npx", "-y", "x-mcp"], ["jspkg", "x-mcp", null], ["nvm exec"]],
    [["nvm", "exec", "--silent", "lts/iron", "npx", "x-mcp"], ["jspkg", "x-mcp", null], ["nvm exec"]],
    [["nvm", "exec", "npx", "x-mcp"], ["jspkg", "x-mcp", null], ["nvm exec"]],
    [["/home/me/.local/bin/mise", "exec", "--", "uvx", "mcp-server-git"], ["pypkg", "mcp-server-git", null], ["mise exec"]],
  ])("%j → %j through %j", (argv, expected, wrappers) => {
    const id = run(argv);
    expect([id.kind, id.identifier, id.version]).toEqual(expected);
    expect(id.wrappers).toEqual(wrappers);
  });

  it("reads a whole command line written into `command`", () => {
    expect(classifyEntry(entry({ command: "mise exec -- npx -y x-mcp" }))).toMatchObject({ kind: "jspkg", identifier: "x-mcp" });
  });

  it("a manager called without a command to run is not a server", () => {
    expect(run(["mise", "exec", "node@20"])).toMatchObject({ kind: "other", unresolvable: { summary: expect.stringMatching(/without/) } });
    expect(run(["volta", "run"])).toMatchObject({ kind: "other" });
    expect(run(["mise", "run", "serve"])).toMatchObject({ kind: "other" });
  });
});
