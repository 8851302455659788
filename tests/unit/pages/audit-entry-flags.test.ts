import { describe, expect, it } from "vitest";
import { auditEntryFlags } from "@/app/audit/audit-entry-flags";

// The audit table's flags beside an entry's key. `honoured: false` has two causes (lib/config-audit/find-entries.ts):
// a map the client does not read, or a remote entry in Claude Desktop's file, whose mcpServers map it does read.
describe("the audit table's flags for an entry", () => {
  const entry = { honoured: true, disabled: false, map_key: "mcpServers" };

  it("names the map a client ignores (mcpServers in a VS Code mcp.json)", () => {
    expect(auditEntryFlags({ ...entry, honoured: false }, "vscode")).toEqual(["in mcpServers, which this client ignores"]);
  });

  it("says Claude Desktop does not connect a remote entry from its file, never that it ignores mcpServers (the map it reads)", () => {
    expect(auditEntryFlags({ ...entry, honoured: false }, "claude-desktop")).toEqual([
      "a remote server, which Claude Desktop does not connect from this file",
    ]);
  });

  it("adds disabled, and nothing for an honoured, enabled entry", () => {
    expect(auditEntryFlags({ ...entry, disabled: true }, "cursor")).toEqual(["disabled"]);
    expect(auditEntryFlags({ ...entry, honoured: false, map_key: "servers", disabled: true }, "cursor")).toEqual(["in servers, which this client ignores", "disabled"]);
    expect(auditEntryFlags(entry, "claude-desktop")).toEqual([]);
  });
});
