import { describe, expect, it } from "vitest";
import { auditFormRefusal } from "@/app/audit/audit-form-refusal";

// One function says why the audit form is not sent, for the script (which keeps the button disabled and shows
// the reason beside it) and for the form action without JavaScript: the same words either way, never the API's
// "400 invalid_request: filename: Too big: expected string to have <=500 characters".
describe("why the audit form is not sent", () => {
  const ok = { config: '{"mcpServers":{}}', hasFile: false, filename: "" };

  it("asks for a config when the box is empty or holds only spaces and line breaks, and no file is chosen", () => {
    expect(auditFormRefusal({ ...ok, config: "" }, 500)).toBe("Paste a config file or choose one.");
    expect(auditFormRefusal({ ...ok, config: " \n\t \r\n" }, 500)).toBe("Paste a config file or choose one.");
    expect(auditFormRefusal({ ...ok, config: " ", hasFile: true }, 500)).toBeNull();
  });

  it("names the file name field and its length when it is too long", () => {
    expect(auditFormRefusal({ ...ok, filename: "f".repeat(501) }, 500)).toBe("File name or path is at most 500 characters; this one has 501.");
    // the form sends it trimmed, as the API is sent it
    expect(auditFormRefusal({ ...ok, filename: ` ${"f".repeat(500)} ` }, 500)).toBeNull();
  });

  it("lets a config with a reasonable file name through", () => {
    expect(auditFormRefusal({ ...ok, filename: ".vscode/mcp.json" }, 500)).toBeNull();
  });
});
