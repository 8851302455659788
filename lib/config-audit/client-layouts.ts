import type { LayoutId } from "./types";

/** The map keys a client reads its servers from (../shared/reference/mcp-config-layouts.md §2). */
export const HONOURED_MAP_KEYS: Partial<Record<LayoutId, readonly string[]>> = {
  "claude-desktop": ["mcpServers"],
  "claude-code": ["mcpServers"],
  "claude-code-user": ["mcpServers", "projects.*.mcpServers"],
  "claude-code-plugin": ["(top level)"],
  cursor: ["mcpServers"],
  vscode: ["servers"],
  "vscode-user": ["servers"],
  "vscode-settings": ["mcp.servers"],
  "github-copilot": ["mcpServers"],
  windsurf: ["mcpServers"],
  codex: ["mcp_servers"],
  gemini: ["mcpServers"],
  zed: ["context_servers"],
  continue: ["mcpServers", "experimental.modelContextProtocolServers"],
  cline: ["mcpServers"],
  roo: ["mcpServers"],
  kiro: ["mcpServers"],
  "mcp-servers": ["mcpServers"],
};

/**
 * The client that reads a file of this name or path, when the path says so unambiguously. Paths are
 * compared lower-case with forward slashes; the longest, most specific patterns come first.
 */
const BY_PATH: readonly [RegExp, LayoutId][] = [
  [/(^|\/)claude_desktop_config\.json$/, "claude-desktop"],
  [/(^|\/)\.claude\.json$/, "claude-code-user"],
  [/(^|\/)\.claude-plugin\/.*\.mcp\.json$|(^|\/)plugins?\/[^/]+\/\.mcp\.json$/, "claude-code-plugin"],
  [/(^|\/)(managed-)?\.?mcp\.json$/, "claude-code"],
  [/(^|\/)\.cursor\/mcp\.json$/, "cursor"],
  [/(^|\/)\.vscode\/mcp\.json$/, "vscode"],
  [/(^|\/)code( - insiders)?\/user\/mcp\.json$|(^|\/)user\/mcp\.json$/, "vscode-user"],
  [/(^|\/)code( - insiders)?\/user\/settings\.json$|(^|\/)\.vscode\/settings\.json$/, "vscode-settings"],
  [/(^|\/)\.github\/mcp\.json$|(^|\/)\.copilot\/mcp-config\.json$/, "github-copilot"],
  [/(^|\/)mcp_config\.json$/, "windsurf"],
  [/(^|\/)\.codex\/config\.toml$|(^|\/)codex\/config\.toml$/, "codex"],
  [/(^|\/)\.gemini\/settings\.json$/, "gemini"],
  [/(^|\/)zed\/settings\.json$|(^|\/)\.zed\/settings\.json$/, "zed"],
  [/(^|\/)\.continue\/.*\.(ya?ml|json)$|(^|\/)continue\/config\.(ya?ml|json)$/, "continue"],
  [/(^|\/)cline_mcp_settings\.json$/, "cline"],
  [/(^|\/)\.roo\/mcp\.json$|(^|\/)mcp_settings\.json$/, "roo"],
  [/(^|\/)\.kiro\/settings\/mcp\.json$/, "kiro"],
];

export function clientFromFilename(filename: string | null | undefined): LayoutId | null {
  if (!filename) return null;
  const p = filename.trim().replace(/\\/g, "/").toLowerCase();
  // a Claude Code project file is `.mcp.json`; a bare `mcp.json` elsewhere says nothing about the client
  for (const [re, client] of BY_PATH) {
    if (client === "claude-code" && !/(^|\/)(managed-mcp|\.mcp)\.json$/.test(p)) continue;
    if (re.test(p)) return client;
  }
  return null;
}
