import { findNodeAtLocation, parseTree } from "jsonc-parser";
import { parseDocument } from "yaml";
import { clientFromFilename } from "./client-layouts";
import { ConfigParseError, lineColumnAt } from "./config-parse-error";
import { ConfigShapeError, findEntries } from "./find-entries";
import { readConfigDocument } from "./read-config-document";
import type { ConfigFormat, ParsedConfig } from "./types";

/**
 * A whole MCP config file → its layout and server entries. `filename` (a name or path such as
 * `.vscode/mcp.json`) is optional: it picks the syntax by extension and names the client, which decides
 * the reported layout and which maps the client honours. Throws ConfigParseError (line, column) for a file
 * that cannot be read and for a server map or entry of the wrong type.
 */
export function parseConfig(text: string, filename?: string | null): ParsedConfig {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const { format, value } = readConfigDocument(text, filename);
  try {
    const { layout, mapKeys, entries } = findEntries(value, clientFromFilename(filename));
    return { format, layout, mapKeys, entries };
  } catch (err) {
    if (!(err instanceof ConfigShapeError)) throw err;
    const { line, column } = locate(text, format, err.path);
    throw new ConfigParseError(err.message, line, column);
  }
}

/** Where a document path is in the text: exact for JSON and YAML, the table header or key line for TOML. */
function locate(text: string, format: ConfigFormat, path: (string | number)[]): { line: number; column: number } {
  try {
    if (format === "json" || format === "jsonc") {
      const root = parseTree(text, [], { allowTrailingComma: true });
      const node = root && findNodeAtLocation(root, path);
      const at = node?.parent?.type === "property" ? node.parent.offset : node?.offset;
      if (at !== undefined) return lineColumnAt(text, at);
    } else if (format === "yaml") {
      const node = parseDocument(text).getIn(path, true) as { range?: [number, number, number] } | undefined;
      if (node?.range) return lineColumnAt(text, node.range[0]);
    } else {
      // the entry's table header, then the field's `key =` line inside that table
      const keys = path.map(String);
      const header = text.search(new RegExp(`^[ \\t]*\\[${keys.slice(0, 2).map(escapeTomlKey).join("\\.")}[\\].]`, "m"));
      let at = header;
      if (header >= 0 && keys.length > 2) {
        const key = text.slice(header).search(new RegExp(`^[ \\t]*${escapeTomlKey(keys[keys.length - 1])}[ \\t]*=`, "m"));
        if (key > 0) at = header + key;
      }
      if (at >= 0) return lineColumnAt(text, at + (text.slice(at).length - text.slice(at).trimStart().length));
    }
  } catch {
    // locating is best effort
  }
  return { line: 1, column: 1 };
}

function escapeTomlKey(key: string): string {
  const plain = key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return `(?:${plain}|"${plain}")`;
}
