import { createScanner, parseTree, printParseErrorCode, type Node, type ParseError } from "jsonc-parser";
import { parse as parseToml, TomlError } from "smol-toml";
import { isAlias, Lexer, parseDocument, visit, type Document } from "yaml";
import { ConfigParseError, lineColumnAt } from "./config-parse-error";
import type { ConfigFormat } from "./types";

/** Brackets nested deeper than this are refused before any parser sees them (real configs stay under 10). */
export const MAX_NESTING = 64;

export interface ConfigDocument {
  format: ConfigFormat;
  /** The parsed top level: always a plain object. */
  value: Record<string, unknown>;
}

type Syntax = "json" | "toml" | "yaml";

/**
 * Reads a config file's text as JSON, JSON with comments and trailing commas, TOML or YAML. The file name,
 * when given, decides the syntax by its extension (`.toml`, `.yaml`/`.yml`; anything else is JSON);
 * without one the text decides: a document whose first significant character is `{` or `[` is JSON (so a
 * JSON file with `#` comment lines fails as JSON, as every JSON client would fail it), otherwise TOML, then
 * YAML. Strict JSON is tried first and JSONC only when it fails, so `format` says which one the file needed.
 * Throws ConfigParseError with the line and column of the first problem.
 */
export function readConfigDocument(text: string, filename?: string | null): ConfigDocument {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (!text.trim()) throw new ConfigParseError("the config file is empty", 1, 1);
  // JSON, TOML and YAML all forbid raw control characters (other than tab and line breaks): binary content
  const control = text.search(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
  if (control >= 0) {
    throw new ConfigParseError("the config file contains control characters: it is binary, not a JSON, TOML or YAML text file", ...at(text, control));
  }
  checkNesting(text);
  // one line that is all comment: most likely a file whose line breaks were lost on the way (`curl -d @file` strips
  // them), so a leading comment swallowed every server; read as TOML it would pass as a config with no servers
  if (!/[\r\n]/.test(text.trim()) && firstSignificantChar(text) === null) {
    throw new ConfigParseError("the config file is a single line of comment and holds no servers; if it was sent with curl -d, which strips line breaks, send it with --data-binary @file", 1, 1);
  }
  // a document of comments alone holds no value: JSON and JSONC refuse it, and so does every syntax, as they refuse an
  // empty body (read as TOML it was an empty table, a green config with no servers; as YAML a null top level)
  if (firstSignificantChar(text) === null) {
    throw new ConfigParseError("the config file holds only comments: no settings and no servers to audit", 1, 1);
  }

  try {
    return readBySyntax(text, filename);
  } catch (err) {
    // a file whose line breaks were lost on the way (`curl -d @file` strips them) fails at a comment that swallowed
    // the rest of the text or at TOML keys run together; the parser's own message says nothing of the cause
    if (err instanceof ConfigParseError && !/[\r\n]/.test(text.trim())) {
      throw new ConfigParseError(`${err.reason}; the file is one line: if it was sent with curl -d, which strips line breaks, send it with --data-binary @file`, err.line, err.column);
    }
    throw err;
  }
}

function readBySyntax(text: string, filename?: string | null): ConfigDocument {
  const syntax = syntaxOf(text, filename);
  if (syntax === "json") {
    const json = readJson(text);
    return { format: json.format, value: topLevelObject(json.value) };
  }
  if (syntax === "toml") return { format: "toml", value: readToml(text) };
  if (syntax === "yaml") return { format: "yaml", value: readYaml(text) };

  // No file name and not JSON-shaped: TOML, else YAML. A text that is neither is reported with the error of
  // the syntax it most resembles. A YAML file may hold a line that looks like TOML (`KEY=value` in a block scalar
  // or a list), so one that is valid YAML is read as such.
  try {
    return { format: "toml", value: readToml(text) };
  } catch (tomlError) {
    if (!looksLikeToml(text)) return { format: "yaml", value: readYaml(text) };
    try {
      return { format: "yaml", value: readYaml(text) };
    } catch {
      throw tomlError;
    }
  }
}

function at(text: string, offset: number): [number, number] {
  const { line, column } = lineColumnAt(text, offset);
  return [line, column];
}

function syntaxOf(text: string, filename?: string | null): Syntax | null {
  const name = (filename ?? "").trim().toLowerCase();
  if (name) {
    if (name.endsWith(".toml")) return "toml";
    if (name.endsWith(".yaml") || name.endsWith(".yml")) return "yaml";
    return "json";
  }
  const first = firstSignificantChar(text);
  if (first === "{") return "json";
  // `[` opens a JSON array, or a TOML table header such as `[mcp_servers.git]`; text that is valid JSON is JSON
  if (first === "[") return looksLikeToml(text) && !isStrictJson(text) ? "toml" : "json";
  return null;
}

/** The first character that is not white space or inside a `#`, `//` or `/* … *\/` comment. */
function firstSignificantChar(text: string): string | null {
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === " " || c === "\t" || c === "\r" || c === "\n") {
      i++;
    } else if (c === "#" || (c === "/" && text[i + 1] === "/")) {
      const nl = text.indexOf("\n", i);
      if (nl < 0) return null;
      i = nl + 1;
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      if (end < 0) return null;
      i = end + 2;
    } else {
      return c;
    }
  }
  return null;
}

function isStrictJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * A `[table]` header or a `key = value` line: the text means to be TOML. A line's indent is white space other
 * than line breaks (a `^\s*` ran from every line start across all the blank lines after it: quadratic in a
 * body of blank lines), which finds the same lines: the line after the last break is a line start too.
 */
export function looksLikeToml(text: string): boolean {
  return /^[^\S\r\n\u2028\u2029]*\[\[?[A-Za-z0-9_."' -]+\]\]?\s*(#.*)?$/m.test(text) || /^[^\S\r\n\u2028\u2029]*[A-Za-z0-9_."'-]+\s*=\s*\S/m.test(text);
}

/**
 * Refuses brackets nested deeper than MAX_NESTING (outside double-quoted strings), so that no parser
 * recurses deep enough to exhaust the stack or spend noticeable time on a hostile body.
 */
function checkNesting(text: string): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */ || c === 10) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > MAX_NESTING) {
        throw new ConfigParseError(`brackets are nested more than ${MAX_NESTING} levels deep`, ...at(text, i));
      }
    } else if ((c === 125 /* } */ || c === 93) /* ] */ && depth > 0) depth--;
  }
}

function readJson(text: string): { format: "json" | "jsonc"; value: unknown } {
  try {
    return { format: "json", value: JSON.parse(text) };
  } catch {
    // not strict JSON: try JSON with comments and trailing commas, which reports where it fails
  }
  checkJsoncNesting(text);
  const errors: ParseError[] = [];
  let value: unknown;
  try {
    const tree = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false });
    value = tree ? nodeValue(tree) : undefined;
  } catch (err) {
    throw new ConfigParseError(`not valid JSON: ${(err as Error).message}`, 1, 1);
  }
  if (errors.length) {
    const first = errors[0];
    throw new ConfigParseError(
      `not valid JSON, nor JSON with comments and trailing commas: ${describeJsoncError(printParseErrorCode(first.error))}`,
      ...at(text, first.offset),
    );
  }
  return { format: "jsonc", value };
}

/**
 * A parsed JSONC node as the value JSON.parse would give: jsonc-parser's own parse() assigns each key, so a key
 * "__proto__" set the object's prototype instead of adding a member (a server of that name vanished from the
 * audit, and its fields showed through on the map). Later duplicates win, as in JSON.parse.
 */
function nodeValue(node: Node): unknown {
  switch (node.type) {
    case "object": {
      const out: Record<string, unknown> = {};
      for (const property of node.children ?? []) {
        const [key, value] = property.children ?? [];
        if (!key || !value) continue;
        Object.defineProperty(out, key.value as string, { value: nodeValue(value), enumerable: true, writable: true, configurable: true });
      }
      return out;
    }
    case "array":
      return (node.children ?? []).map(nodeValue);
    default:
      return node.value;
  }
}

/**
 * checkNesting reads every `"` as a string's start, so one inside a comment (`/* " *\/ [[[…`) hid the rest of its line
 * and jsonc-parser recursed once per bracket behind it until its stack overflowed. Its own scanner knows comments.
 */
function checkJsoncNesting(text: string): void {
  const scanner = createScanner(text, false);
  let depth = 0;
  // SyntaxKind is a const enum (not importable here): a bracket is the one-character token that is one; EOF is empty
  for (scanner.scan(); scanner.getTokenLength() > 0; scanner.scan()) {
    if (scanner.getTokenLength() !== 1) continue;
    const c = text[scanner.getTokenOffset()];
    if (c === "{" || c === "[") {
      if (++depth > MAX_NESTING) throw new ConfigParseError(`brackets are nested more than ${MAX_NESTING} levels deep`, ...at(text, scanner.getTokenOffset()));
    } else if ((c === "}" || c === "]") && depth > 0) depth--;
  }
}

function describeJsoncError(code: string): string {
  return code.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}

function readToml(text: string): Record<string, unknown> {
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch (err) {
    if (err instanceof TomlError) {
      const detail = err.message.split("\n")[0].replace(/^Invalid TOML document:\s*/, "");
      throw new ConfigParseError(`not valid TOML: ${detail}`, err.line || 1, err.column || 1);
    }
    throw new ConfigParseError(`not valid TOML: ${(err as Error).message}`, 1, 1);
  }
}

/**
 * YAML also nests without brackets, by indentation and by compact indicators (`- - - x`, two bytes a level), and
 * the yaml library recurses once per level: about 1,000 levels overflowed its stack, and a few such bodies in one
 * process made V8 abort it. Refuses block nesting deeper than MAX_NESTING before parsing, counted per line as the
 * open indentation levels: the line's own, then one more for each `- `, `? ` or `: ` indicator that opens it.
 * The text of a block scalar (`key: |`, `- >-`), the lines indented under it, is skipped.
 */
function checkYamlNesting(text: string): void {
  const open: number[] = []; // the column of each open block level, innermost last
  let scalarIndent = -1; // inside a block scalar: lines indented more than this are its text
  const lineRe = /[^\r\n]*(?:\r\n|\r|\n|$)/g;
  for (let m = lineRe.exec(text); m && m[0]; m = lineRe.exec(text)) {
    const line = m[0].replace(/[\r\n]+$/, "");
    const indent = line.length - line.replace(/^ +/, "").length;
    const rest = line.slice(indent);
    if (!rest.trim() || rest.startsWith("#")) continue;
    if (scalarIndent >= 0 && indent > scalarIndent) continue;
    scalarIndent = -1;
    while (open.length && open[open.length - 1] >= indent) open.pop();
    let column = indent;
    for (;;) {
      open.push(column);
      if (open.length > MAX_NESTING) {
        throw new ConfigParseError(`the YAML is nested more than ${MAX_NESTING} levels deep`, ...at(text, m.index + column));
      }
      const indicator = /^[-?:](?:[ \t]+|$)/.exec(line.slice(column));
      if (!indicator) break;
      column += indicator[0].length;
    }
    if (/(?:^|[ \t])[|>][1-9+-]{0,2}[ \t]*(?:#.*)?$/.test(line.slice(column))) scalarIndent = indent;
  }
}

/**
 * YAML's flow collections (`[…]`, `{…}`) nested past MAX_NESTING. checkNesting reads every `"` as a string's start, so
 * one in a single-quoted string (`['"', [[[…`) or a double-quoted string spanning lines hid brackets from it, and the yaml
 * library recursed once per bracket until its stack overflowed, seconds of CPU per body. The library's own lexer knows
 * YAML's quoting; it does not recurse, and the scan stops at the first bracket too deep.
 */
function checkYamlFlowNesting(text: string): void {
  let depth = 0;
  let offset = 0;
  let scalar = false; // the token after the scalar marker is a scalar's text (a block scalar may be a lone `[`)
  for (const token of new Lexer().lex(text)) {
    const start = offset;
    offset += token.length;
    if (scalar) scalar = false;
    else if (token === "\u001f") scalar = true;
    else if (token === "[" || token === "{") {
      if (++depth > MAX_NESTING) throw new ConfigParseError(`the YAML is nested more than ${MAX_NESTING} levels deep`, ...at(text, start));
    } else if ((token === "]" || token === "}") && depth > 0) depth--;
  }
}

/**
 * An alias whose anchor is not set makes toJS() throw a message naming the alias: the text after `*`, which may be
 * a value written unquoted (`TOKEN: *Passw0rd`). Reported at the alias, without its name.
 */
function checkAliases(doc: Document, text: string): void {
  // one pass in document order, as the library resolves an alias to the last anchor of its name before it
  const anchors = new Set<string>();
  visit(doc, {
    Node(_, node) {
      if (isAlias(node)) {
        if (!anchors.has(node.source)) {
          throw new ConfigParseError("not valid YAML: an alias (`*name`) whose anchor (`&name`) is not set before it", ...at(text, node.range?.[0] ?? 0));
        }
      } else if (node.anchor) anchors.add(node.anchor);
    },
  });
}

function readYaml(text: string): Record<string, unknown> {
  checkYamlNesting(text);
  checkYamlFlowNesting(text);
  let doc;
  try {
    doc = parseDocument(text, { uniqueKeys: false, prettyErrors: false });
  } catch (err) {
    throw new ConfigParseError(`not valid YAML: ${(err as Error).message}`, 1, 1);
  }
  if (doc.errors.length) {
    const e = doc.errors[0];
    // without prettyErrors the library leaves linePos unset; the offset is always there
    const pos = e.linePos?.[0];
    const [line, column] = pos ? [pos.line, pos.col] : at(text, e.pos[0]);
    throw new ConfigParseError(`not valid YAML: ${e.message.split("\n")[0]}`, line, column);
  }
  checkAliases(doc, text);
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    throw new ConfigParseError(`not valid YAML: ${(err as Error).message}`, 1, 1);
  }
  return topLevelObject(value);
}

function topLevelObject(value: unknown): Record<string, unknown> {
  if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  const got = value === null ? "null" : Array.isArray(value) ? "an array" : typeof value === "string" ? "a bare string" : `a ${typeof value}`;
  throw new ConfigParseError(`not an MCP config: the top level must be an object holding a server map, not ${got}`, 1, 1);
}
