import { clientFromFilename } from "./client-layouts";
import { findEntries } from "./find-entries";
import { readConfigDocument } from "./read-config-document";
import type { ParsedConfig } from "./types";

/**
 * A whole MCP config file → its layout and server entries. `filename` (a name or path such as
 * `.vscode/mcp.json`) is optional: it picks the syntax by extension and names the client, which decides
 * the reported layout and which maps the client honours. Throws ConfigParseError (line, column).
 */
export function parseConfig(text: string, filename?: string | null): ParsedConfig {
  const { format, value } = readConfigDocument(text, filename);
  const { layout, mapKeys, entries } = findEntries(value, clientFromFilename(filename));
  return { format, layout, mapKeys, entries };
}
