import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classifyEntry, ConfigParseError, decodeConfigBytes, MAX_NESTING, parseConfig } from "@/lib/config-audit";

function parseError(text: string, filename?: string): ConfigParseError {
  try {
    parseConfig(text, filename);
  } catch (err) {
    if (err instanceof ConfigParseError) return err;
    throw err;
  }
  throw new Error("expected a ConfigParseError");
}

const keys = (text: string, filename?: string) => parseConfig(text, filename).entries.map((e) => `${e.mapKey}:${e.key}${e.honoured ? "" : "(ignored)"}`);

describe("parseConfig: syntax", () => {
  it("reads strict JSON as json and JSON with comments and trailing commas as jsonc", () => {
    expect(parseConfig('{"mcpServers":{"a":{"command":"npx","args":["-y","x"]}}}').format).toBe("json");
    const jsonc = `{
      // a comment
      "servers": { "a": { "command": "npx", "args": ["-y", "x",], }, /* block */ },
    }`;
    const p = parseConfig(jsonc);
    expect(p.format).toBe("jsonc");
    expect(p.entries[0]).toMatchObject({ key: "a", command: "npx", args: ["-y", "x"] });
  });

  it("keeps a server named __proto__ in JSON with comments as in strict JSON, and its fields as its own", () => {
    // jsonc-parser's parse() assigns keys, so "__proto__" would set the map's prototype: the entry vanished from
    // the audit and its fields showed through on the map
    const strict = '{"mcpServers":{"__proto__":{"command":"npx","args":["-y","x"]},"b":{"command":"uvx","args":["y"]}}}';
    const withComment = strict.replace("{", "{ // servers\n");
    expect(keys(strict)).toEqual(["mcpServers:__proto__", "mcpServers:b"]);
    expect(parseConfig(withComment).format).toBe("jsonc");
    expect(keys(withComment)).toEqual(keys(strict));
    const entry = parseConfig(withComment).entries[0];
    expect([entry.command, entry.args]).toEqual(["npx", ["-y", "x"]]);
    // an entry's own "__proto__" field is a field, not where its command comes from
    const nested = '{ // x\n"mcpServers":{"a":{"__proto__":{"command":"evil"},"url":"https://example.com/mcp"}}}';
    const [a] = parseConfig(nested).entries;
    expect([a.command, a.url]).toEqual([null, "https://example.com/mcp"]);
  });

  it("strips a UTF-8 byte order mark", () => {
    expect(parseConfig('\uFEFF{"mcpServers":{}}').format).toBe("json");
  });

  it("reports the line and column of a JSON error", () => {
    const err = parseError('{\n  "mcpServers": {\n    "a": { "command": "npx" \n    "b": 1\n  }\n}');
    expect(err.line).toBe(4);
    expect(err.column).toBe(5);
    expect(err.message).toMatch(/not valid JSON.*\(line 4, column 5\)$/);
  });

  it("fails a JSON file with # comment lines as JSON, at line 1 column 1", () => {
    const err = parseError('#where it lives\n{"mcpServers":{}}');
    expect([err.line, err.column]).toEqual([1, 1]);
  });

  it("reads TOML by extension or by content, and reports TOML errors with their position", () => {
    const toml = '# comment\n[mcp_servers.git]\ncommand = "uvx"\nargs = ["mcp-server-git"]\n[mcp_servers.git.env]\nA = "1"\n';
    expect(parseConfig(toml).format).toBe("toml");
    expect(keys(toml)).toEqual(["mcp_servers:git"]);
    expect(parseConfig(toml, "config.toml").layout).toBe("codex");
    const err = parseError('[mcp_servers.a]\ncommand = "x"\nargs = [\n', "config.toml");
    expect(err.message).toMatch(/^not valid TOML/);
    expect(err.line).toBeGreaterThanOrEqual(3);
  });

  it("refuses a file that is one line of comment (line breaks stripped by curl -d), instead of passing it as empty", () => {
    const toml = '# my Codex config\n[mcp_servers.git]\ncommand = "uvx"\nargs = ["mcp-server-git"]\n';
    const flattened = toml.replace(/\n/g, "");
    for (const filename of [undefined, "config.toml", ".cursor/mcp.json"]) {
      expect(parseError(flattened, filename).message, String(filename)).toMatch(/single line of comment.*--data-binary/);
    }
    expect(parseError('// my Cursor config{"mcpServers":{}}').message).toMatch(/single line of comment/);
    // a comment in the middle, or TOML run together: the parser's error, and the likely cause beside it
    const jsonc = '{\n  // the team\'s servers\n  "mcpServers": {\n    "git": { "command": "uvx", "args": ["mcp-server-git"] }\n  }\n}\n';
    for (const [text, filename] of [[jsonc, ".cursor/mcp.json"], [jsonc, undefined], [toml.replace("# my Codex config\n", ""), "config.toml"], [toml.replace("# my Codex config\n", ""), undefined]] as const) {
      expect(parseConfig(text, filename).entries).toHaveLength(1);
      expect(parseError(text.replace(/\n/g, ""), filename).message, `${filename} ${text}`).toMatch(/\(line 1, column \d+\)$/);
      expect(parseError(text.replace(/\n/g, ""), filename).message).toMatch(/; the file is one line: if it was sent with curl -d, which strips line breaks, send it with --data-binary @file/);
    }
    // a real error in a file with its line breaks gets no such guess
    expect(parseError('{\n  "mcpServers": {\n').message).not.toMatch(/one line/);
  });

  it("refuses a document of comments alone in every syntax, as JSON and JSONC do, and reads one setting without servers", () => {
    // read as TOML such a file was an empty table: 0 entries and exit 0, while the same comments in YAML or JSONC were a 400
    const message = "the config file holds only comments: no settings and no servers to audit (line 1, column 1)";
    for (const [text, filename] of [
      ["# nothing yet\n# [mcp_servers.x]\n", undefined],
      ["# nothing yet\n# [mcp_servers.x]\n", "config.toml"],
      ["# nothing yet\n\n# - name: x\n", ".continue/config.yaml"],
      ["// nothing yet\n/* {\"mcpServers\": {}} */\n", ".cursor/mcp.json"],
      ["// nothing yet\n// {}\n", undefined],
    ] as const) {
      expect(parseError(text, filename).message, `${filename}: ${text}`).toBe(message);
    }
    expect(parseConfig('# a Codex config without MCP servers\nmodel = "o3"\n', ".codex/config.toml")).toMatchObject({ format: "toml", layout: "codex", entries: [] });
    expect(parseConfig("# no servers yet\nname: x\n", ".continue/config.yaml")).toMatchObject({ format: "yaml", entries: [] });
    expect(parseConfig("// no servers yet\n{}\n", ".cursor/mcp.json")).toMatchObject({ format: "jsonc", entries: [] });
  });

  it("does not read commented-out TOML tables as servers", () => {
    expect(keys('# [mcp_servers.old]\n# command = "npx"\n[mcp_servers.new]\nurl = "https://mcp.linear.app/mcp"\n')).toEqual(["mcp_servers:new"]);
  });

  it("reads Continue's YAML list, with the item name as the key", () => {
    const yaml = "name: x\nversion: 0.0.1\nschema: v1\nmcpServers:\n  - name: sqlite\n    command: npx\n    args: [\"-y\", \"mcp-sqlite\"]\n  - name: remote\n    type: streamable-http\n    url: https://mcp.example.com/mcp\n";
    const p = parseConfig(yaml, ".continue/config.yaml");
    expect(p).toMatchObject({ format: "yaml", layout: "continue" });
    expect(p.entries.map((e) => e.key)).toEqual(["sqlite", "remote"]);
    expect(parseConfig(yaml).format).toBe("yaml");
  });

  it("reads as YAML, without a file name, a YAML file holding a line that looks like TOML; broken TOML keeps TOML's error", () => {
    const yaml = "mcpServers:\n  - name: db\n    command: npx\n    args:\n      - -y\n      - mcp-db\n      - DB_URL=postgres://x\n    env:\n      NOTE: |\n        KEY=value\n";
    const p = parseConfig(yaml);
    expect(p.format).toBe("yaml");
    expect(p.entries.map((e) => e.key)).toEqual(["db"]);
    // TOML with a syntax error that YAML reads only as a string, or not at all: still TOML's message
    expect(parseError('[mcp_servers.git]\ncommand = "npx\n').message).toMatch(/TOML/);
    expect(parseError('model = "o3"\nbroken = \n').message).toMatch(/TOML/);
  });

  it("reports a YAML syntax error at its own line and column, not at the start of the file", () => {
    const err = parseError("mcpServers:\n  - name: a\n    command: [npx\n", "c.yaml");
    expect(err.message).toMatch(/^not valid YAML/);
    expect(err.line).toBeGreaterThanOrEqual(3);
    const tab = parseError("mcpServers:\n  a:\n\t command: npx\n", "c.yaml");
    expect([tab.line, tab.column]).not.toEqual([1, 1]);
  });

  it("refuses a file that is not an object holding servers: a bare string, an array, an empty body, binary", () => {
    expect(parseError("../../Code - Insiders/User/mcp.json").message).toMatch(/not an MCP config/);
    expect(parseError("[1, 2]").message).toMatch(/not an array/);
    expect(parseError("   \n").message).toMatch(/empty/);
    expect(parseError("abc\u0000def").message).toMatch(/control characters/);
    expect(parseError('{"a":\n 1\u0007}')).toMatchObject({ line: 2, column: 3 });
  });

  it(`refuses brackets nested deeper than ${MAX_NESTING} levels before parsing, at the bracket's position`, () => {
    const deep = "[".repeat(10_000) + "]".repeat(10_000);
    const err = parseError(deep);
    expect(err.message).toMatch(/nested more than 64/);
    expect([err.line, err.column]).toEqual([1, MAX_NESTING + 1]);
    expect(parseError(`a = ${"[".repeat(500)}${"]".repeat(500)}`).message).toMatch(/nested/);
  });

  it(`refuses brackets nested deeper than ${MAX_NESTING} levels behind a quote or comment the plain scan misreads`, () => {
    // a `"` inside a YAML single-quoted string or a JSONC block comment hid the rest of the line from the scan:
    // the yaml library then recursed until its stack overflowed (seconds of CPU per request), jsonc-parser likewise
    const deep = "[".repeat(20_000) + "]".repeat(20_000);
    for (const [text, filename] of [
      [`a: ['"', ${deep}]\nmcpServers: {}\n`, "config.yaml"],
      [`a: ['"', ${deep}]\nmcpServers: {}\n`, undefined],
      [`a: "x\n  y" ${"{b: ".repeat(20_000)}`, "config.yaml"],
      [`{"a": /* " */ ${deep}, "mcpServers": {}}`, "mcp.json"],
      [`{"a": /* " */ ${deep}, "mcpServers": {}}`, undefined],
    ] as const) {
      const err = parseError(text, filename);
      expect(err.message, `${filename} ${text.slice(0, 20)}`).toMatch(/nested more than 64 levels deep/);
      expect(err.line).toBeLessThanOrEqual(2);
    }
    // quoted brackets are not nesting, and 60 real levels are read
    const fine = `a: ['"', "[[[[", '{{{{', ${"[".repeat(60)}${"]".repeat(60)}]\nmcpServers:\n  - name: x\n    command: npx\n    args: ["-y", "pkg"]\n`;
    expect(parseConfig(fine, "config.yaml").entries).toHaveLength(1);
    const fineJsonc = `{"a": /* " */ ${"[".repeat(60)}${"]".repeat(60)}, "mcpServers": {"x": {"command": "npx", "args": ["-y", "pkg"]}}}`;
    expect(parseConfig(fineJsonc).entries).toHaveLength(1);
  });

  it("never echoes the name of an unresolved YAML alias, a value written unquoted after `*` (`TOKEN: *Passw0rd`)", () => {
    const err = parseError("mcpServers:\n  a:\n    command: npx\n    env:\n      TOKEN: *Passw0rd\n", "config.yaml");
    expect(err.message).toMatch(/alias/);
    expect(err.message).not.toContain("Passw0rd");
    expect([err.line, err.column]).toEqual([5, 14]);
  });

  it(`refuses YAML block nesting (indentation, compact \`- - -\`) deeper than ${MAX_NESTING} levels before parsing`, () => {
    // no bracket in either: the yaml library recursed once per level, overflowed its stack at about 1,000
    // levels and, a few such bodies later, V8 aborted the process
    const compact = parseError("mcpServers:\n  - " + "- ".repeat(100_000) + "x\n", "config.yaml");
    expect(compact.message).toMatch(/YAML is nested more than 64 levels deep/);
    expect([compact.line, compact.column]).toEqual([2, 2 * MAX_NESTING + 1]);
    const indented = Array.from({ length: 500 }, (_, i) => `${" ".repeat(i)}k${i}:`).join("\n") + " 1\n";
    expect(parseError(indented).message).toMatch(/nested more than 64/);
    // 60 levels, and a block scalar whose text is indented in steps, are read
    const fine = Array.from({ length: 60 }, (_, i) => `${" ".repeat(i)}k${i}:`).join("\n") + " 1\n";
    expect(parseConfig(fine, "config.yaml").format).toBe("yaml");
    const script = "mcpServers:\n  - name: a\n    command: sh\n    description: |\n" + Array.from({ length: 100 }, (_, i) => `${" ".repeat(6 + i)}x`).join("\n") + "\n";
    expect(parseConfig(script, "config.yaml").entries).toHaveLength(1);
  });
});

describe("parseConfig: layouts and the keys each client reads", () => {
  it("reads servers only from map keys, not every object with a command (hooks, tasks, formatters, ACP agents)", () => {
    const gemini = {
      hooks: { before: { command: "npx evil" } },
      mcpServers: { real: { command: "uvx", args: ["mcp-server-git"] } },
    };
    expect(keys(JSON.stringify(gemini), ".gemini/settings.json")).toEqual(["mcpServers:real"]);
    const zed = {
      languages: { Python: { formatter: { external: { command: "black" } } } },
      agent_servers: { claude: { command: "npx", args: ["acp"] } },
      agent: { profiles: { write: { context_servers: { git: { tools: {} } } } } },
      context_servers: { git: { source: "custom", command: "uvx", args: ["mcp-server-git"] } },
    };
    expect(keys(JSON.stringify(zed))).toEqual(["context_servers:git"]);
    expect(parseConfig(JSON.stringify({ tools: [{ command: "npx dubhe-mcp" }] }), ".cursor/mcp.json").entries).toEqual([]);
  });

  it("marks the map the client ignores: mcpServers in a VS Code mcp.json, servers in a Cursor mcp.json", () => {
    const both = JSON.stringify({ mcpServers: { a: { command: "npx", args: ["a"] } }, servers: { b: { command: "npx", args: ["b"] } } });
    expect(keys(both, ".vscode/mcp.json")).toEqual(["servers:b", "mcpServers:a(ignored)"]);
    expect(keys(both, ".cursor/mcp.json")).toEqual(["mcpServers:a", "servers:b(ignored)"]);
    // without a file name, `servers` means VS Code, the only client that uses it
    expect(parseConfig(both).layout).toBe("vscode");
    expect(keys(both)).toEqual(["servers:b", "mcpServers:a(ignored)"]);
  });

  it("reads VS Code settings.json `mcp.servers`, Claude Code's projects map and a plugin's unwrapped map", () => {
    expect(parseConfig(JSON.stringify({ "editor.fontSize": 12, mcp: { servers: { a: { command: "npx", args: ["a"] } } } }))).toMatchObject({
      layout: "vscode-settings",
      mapKeys: ["mcp.servers"],
    });
    const claude = { mcpServers: { u: { command: "npx", args: ["u"] } }, projects: { "/repo": { mcpServers: { p: { type: "http", url: "https://mcp.sentry.dev/mcp" } } } } };
    const p = parseConfig(JSON.stringify(claude), "/home/me/.claude.json");
    expect(p.layout).toBe("claude-code-user");
    expect(p.entries.map((e) => [e.mapKey, e.key, e.honoured])).toEqual([
      ['projects["/repo"].mcpServers', "p", true],
      ["mcpServers", "u", true],
    ]);
    expect(parseConfig(JSON.stringify({ git: { command: "uvx", args: ["mcp-server-git"] } }), "plugins/x/.mcp.json")).toMatchObject({
      layout: "claude-code-plugin",
      mapKeys: ["(top level)"],
    });
  });

  it("reads Zed's legacy nested command, Gemini's httpUrl, Windsurf's serverUrl, Cline's flags", () => {
    const zed = parseConfig(JSON.stringify({ context_servers: { x: { command: { path: "uvx", args: ["mcp-server-git"] } } } })).entries[0];
    expect(zed).toMatchObject({ command: "uvx", args: ["mcp-server-git"] });
    const gemini = parseConfig(JSON.stringify({ mcpServers: { e: { httpUrl: "https://mcp.expo.dev/mcp", url: "https://other" } } })).entries[0];
    expect(gemini).toMatchObject({ url: "https://mcp.expo.dev/mcp", urlField: "httpUrl" });
    const ws = parseConfig(JSON.stringify({ mcpServers: { r: { serverUrl: "https://mcp.credos.dev" } } }), "mcp_config.json");
    expect(ws).toMatchObject({ layout: "windsurf", entries: [{ url: "https://mcp.credos.dev", urlField: "serverUrl" }] });
    const cline = parseConfig(JSON.stringify({ mcpServers: { a: { command: "npx", args: ["a"], disabled: true }, b: { command: "npx", args: ["b"], enabled: false }, c: { command: "npx", args: ["c"] } } }));
    expect(cline.entries.map((e) => e.disabled)).toEqual([true, true, false]);
  });

  it("reads `enabled: false` as off only where the client has that flag (Codex, Zed), or when the client is unknown", () => {
    const off = { command: "uvx", args: ["mcp-server-git"], enabled: false };
    const disabled = (text: string, filename?: string) => parseConfig(text, filename).entries.map((e) => e.disabled);
    expect(disabled('[mcp_servers.git]\ncommand = "uvx"\nargs = ["mcp-server-git"]\nenabled = false\n', ".codex/config.toml")).toEqual([true]);
    expect(disabled(JSON.stringify({ context_servers: { git: off } }), ".zed/settings.json")).toEqual([true]);
    // Claude Code lists `enabled` among the keys it ignores; Cursor and Claude Desktop have no such flag
    for (const filename of [".mcp.json", ".cursor/mcp.json", "claude_desktop_config.json", ".gemini/settings.json"]) {
      expect(disabled(JSON.stringify({ mcpServers: { git: off } }), filename), filename).toEqual([false]);
    }
    expect(disabled(JSON.stringify({ mcpServers: { git: off } }))).toEqual([true]);
    // `disabled: true` is read as before
    expect(disabled(JSON.stringify({ mcpServers: { git: { ...off, enabled: undefined, disabled: true } } }), ".mcp.json")).toEqual([true]);
  });

  it("marks remote entries in Claude Desktop's file not honoured: that client connects only local servers", () => {
    const file = JSON.stringify({ mcpServers: { remote: { url: "https://mcp.sentry.dev/mcp" }, local: { command: "npx", args: ["-y", "a-mcp"] } } });
    const honoured = (filename: string) => parseConfig(file, filename).entries.map((e) => [e.key, e.honoured]);
    expect(honoured("/Users/me/Library/Application Support/Claude/claude_desktop_config.json")).toEqual([
      ["remote", false],
      ["local", true],
    ]);
    expect(honoured(".cursor/mcp.json")).toEqual([
      ["remote", true],
      ["local", true],
    ]);
  });

  it("refuses server maps and entries of the wrong type, at their line and column", () => {
    const json = '{\n  "mcpServers": {\n    "ok": { "command": "npx", "args": ["a"] },\n    "odd": "npx -y x"\n  }\n}';
    expect(parseError(json)).toMatchObject({ line: 4, column: 5, message: expect.stringMatching(/"odd" in mcpServers must be an object, not a string/) });
    expect(parseError('{"mcpServers": 42}').message).toMatch(/mcpServers must be an object or a list of servers, not a number/);
    expect(parseError('{"servers": {"a": {"command": 5}}}').message).toMatch(/servers\.a\.command must be a string, not a number/);
    expect(parseError('{"mcpServers": {"a": {"command": "npx", "args": [{"x": 1}]}}}').message).toMatch(/args must be a list of strings/);
    // a bare string or a number would hide the package the client runs (or name a package "1"): refused too
    expect(parseError('{"mcpServers": {"a": {"command": "npx", "args": "-y lotus-wisdom-mcp"}}}').message).toMatch(/mcpServers\.a\.args must be a list of strings, not a string/);
    expect(parseError('{"mcpServers": {"a": {"command": "npx", "args": [1]}}}').message).toMatch(/args must be a list of strings; item 0 is a number/);
    expect(parseError('{"mcpServers": {"a": {"command": "npx", "args": ["-y", null]}}}').message).toMatch(/mcpServers\.a\.args must be a list of strings; item 1 is null/);
    expect(parseError('{"mcpServers": {"a": {"command": ["npx", 1]}}}').message).toMatch(/mcpServers\.a\.command must be a string, not an array/);
    // YAML's binary value is no server entry: named as what it is, not "an object"
    expect(parseError("mcpServers:\n  a: !!binary aGVsbG8=\n").message).toMatch(/must be an object, not binary data/);
    expect(parseError('{"context_servers": {"a": {"command": {"path": "npx", "args": "x"}}}}').message).toMatch(/command\.args must be a list of strings/);
    expect(parseError('{"mcpServers": {"a": {"url": ["https://x"]}}}').message).toMatch(/url must be a string, not an array/);
    const toml = parseError('[mcp_servers.a]\ncommand = "npx"\n\n[mcp_servers.b]\ncommand = 7\n', "config.toml");
    expect([toml.line, toml.message]).toEqual([5, "mcp_servers.b.command must be a string, not a number (line 5, column 1)"]);
    const yaml = parseError("mcpServers:\n  - name: a\n    command: npx\n  - 42\n", "config.yaml");
    expect([yaml.line, yaml.column]).toEqual([4, 5]);
    // a file without any server map is not wrong: it has no entries (a Codex config without MCP servers)
    expect(parseConfig('approval_policy = "on-request"\n', "config.toml").entries).toEqual([]);
  });
});

describe("decodeConfigBytes", () => {
  it("decodes UTF-8 and refuses other bytes at the first bad one", () => {
    expect(decodeConfigBytes(new TextEncoder().encode('{"k":"é"}'))).toBe('{"k":"é"}');
    let err: unknown;
    try {
      decodeConfigBytes(Uint8Array.from([0x7b, 0x0a, 0x20, 0x22, 0xff, 0x22]));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigParseError);
    expect(err).toMatchObject({ line: 2, column: 3, message: expect.stringMatching(/not UTF-8/) });
  });

  it("names UTF-16 text as such (Windows PowerShell writes it), with or without a byte order mark, instead of calling it binary", () => {
    const config = '{\n  "mcpServers": {}\n}\n';
    const le = Buffer.from(config, "utf16le");
    const be = Buffer.from(config, "utf16le").swap16();
    for (const bytes of [Buffer.concat([Buffer.from([0xff, 0xfe]), le]), le, Buffer.concat([Buffer.from([0xfe, 0xff]), be]), be]) {
      expect(() => decodeConfigBytes(bytes)).toThrow(ConfigParseError);
      expect(() => decodeConfigBytes(bytes)).toThrow("the file is UTF-16 text, not UTF-8: save it as UTF-8 and send it again");
    }
    // UTF-8 with its byte order mark is UTF-8
    expect(decodeConfigBytes(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(config)]))).toBe(config);
  });
});

describe("parseConfig and classifyEntry on arbitrary input", () => {
  const onlyParseErrors = (text: string, filename?: string) => {
    try {
      for (const e of parseConfig(text, filename).entries) classifyEntry(e);
    } catch (err) {
      if (!(err instanceof ConfigParseError)) throw err;
      expect(err.line).toBeGreaterThanOrEqual(1);
      expect(err.column).toBeGreaterThanOrEqual(1);
    }
  };

  it("throw nothing but ConfigParseError for any text, under any file name", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 300 }), fc.constantFrom(undefined, "a.json", "a.toml", "a.yaml", ".vscode/mcp.json"), (text, name) => onlyParseErrors(text, name)),
      { numRuns: 500 },
    );
  });

  it("throw nothing but ConfigParseError for any JSON value placed where servers live", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.constantFrom("mcpServers", "servers", "context_servers", "mcp_servers", "projects"), (v, key) => {
        onlyParseErrors(JSON.stringify({ [key]: v }));
        onlyParseErrors(JSON.stringify({ [key]: { a: v } }));
        onlyParseErrors(JSON.stringify({ mcpServers: { a: { command: "npx", args: v } } }));
        onlyParseErrors(JSON.stringify({ mcpServers: { a: { command: v, url: v } } }));
      }),
      { numRuns: 500 },
    );
  });
});
