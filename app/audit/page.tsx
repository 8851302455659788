import type { Metadata } from "next";
import { AUDIT_FILENAME_MAX_CHARS, AUDIT_MAX_ENTRIES_KEYED, AUDIT_MAX_ENTRIES_KEYLESS } from "@/lib/config";
import { configTooLarge } from "@/lib/api/read-config-body";
import { AuditForm } from "./audit-form";
import { auditErrorText } from "./audit-error-text";
import { AUDIT_REFUSED_PARAM } from "./refused";

export const metadata: Metadata = {
  title: "Config audit",
  description: "Paste or drop an MCP config file (.mcp.json, mcp.json, Claude Desktop, Cursor, VS Code, Codex TOML …) and get a verdict for every server in it.",
};

/** The line for a post middleware.ts refused before it was read (the one reason it has). */
function refusedText(refused: unknown): string | undefined {
  if (refused !== "payload_too_large") return undefined;
  return auditErrorText(413, { error: "payload_too_large", message: configTooLarge().message });
}

export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const refused = refusedText((await searchParams)[AUDIT_REFUSED_PARAM]);
  return (
    <>
      <h1>Config audit</h1>
      <p>
        Paste or drop a whole MCP config file: Claude Desktop or Claude Code (<code>mcpServers</code>), Cursor, Windsurf,
        Gemini CLI, Cline, VS Code (<code>servers</code>), Zed (<code>context_servers</code>), Codex (
        <code>[mcp_servers.*]</code> TOML) or Continue YAML. Every server entry is tied to a registry server by its URL, npm
        or PyPI package or image, and gets that server&apos;s preflight verdict: <strong>PASS</strong>, <strong>REVIEW</strong>
        , <strong>BLOCK</strong>, or <strong>UNKNOWN</strong> when the catalog has no row for it (which does not mean it is
        fine).
      </p>
      <p>
        Without an API key you can audit one config of up to {AUDIT_MAX_ENTRIES_KEYLESS} entries a day; with a key, up to{" "}
        {AUDIT_MAX_ENTRIES_KEYED} entries for 1 credit per distinct config a day. The file is read, not stored. In CI, send
        the same file to the API and exit with the code it returns (a BLOCK still answers HTTP 200, so{" "}
        <code>curl --fail</code> alone never fails the build):{" "}
        <code>curl -sS -D h.txt --data-binary @.mcp.json &quot;$BASE/v1/audit?strict=1&quot;</code>, then{" "}
        <code>exit &quot;$(grep -i &apos;^x-catalog-exit-code:&apos; h.txt | tr -dc 0-9)&quot;</code> (<a href="/docs#auditConfig">POST /v1/audit</a>).
      </p>
      <AuditForm refused={refused} filenameMax={AUDIT_FILENAME_MAX_CHARS} />
    </>
  );
}
