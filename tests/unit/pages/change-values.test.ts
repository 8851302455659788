import { describe, expect, it } from "vitest";
import { changeValueText } from "@/app/_components/change-values";

// The change rows showed the feed's JSON as it was: {"live":false,"http_status":null} → {"verified":true}.
describe("a change's before and after as a person reads them", () => {
  it.each<[string, unknown, string]>([
    ["nothing before a new server", null, "none"],
    ["a remote that went down", { url: "https://mcp.example.com/mcp", live: false, http_status: 503 }, "URL: https://mcp.example.com/mcp; live: no; HTTP status: 503"],
    ["a remote never observed, with no HTTP answer", { url: "https://x.example/mcp", live: null, http_status: null }, "URL: https://x.example/mcp; live: unknown; HTTP status: none"],
    ["verified not known before", { verified: null }, "verified: unknown"],
    ["verified now", { verified: true }, "verified: yes"],
    ["health with problems", { health: "issues", problems: ["repo_gone", "package_missing"] }, "health: issues; problems: repo_gone, package_missing"],
    ["health without problems", { health: "healthy", problems: [] }, "health: healthy; problems: none"],
    ["a new server's listing", { version: null, registry_status: "active", spec_era: "2025-06-18", remotes: ["https://a.example/mcp", "https://b.example/sse"] }, "version: unknown; registry status: active; spec era: 2025-06-18; remotes: https://a.example/mcp, https://b.example/sse"],
    ["a tool list", { url: "https://a.example/mcp", tools_hash: "ab12", tools_count: 4 }, "URL: https://a.example/mcp; tools hash: ab12; tools: 4"],
    [
      "advisories",
      { advisories: [{ ecosystem: "npm", identifier: "@acme/x", version: "1.4.2", id: "GHSA-aaaa-bbbb-cccc", severity: "high" }, { ecosystem: "pypi", identifier: "acme", version: null, id: "PYSEC-2025-1", severity: null }] },
      "advisories: GHSA-aaaa-bbbb-cccc (high) in npm @acme/x 1.4.2, PYSEC-2025-1 in pypi acme",
    ],
    ["no advisories", { advisories: [] }, "advisories: none"],
    ["a nested object", { a: { b: 1, c: false } }, "a: (b: 1, c: no)"],
    ["a bare list", ["x", 2, true, null], "x, 2, yes, unknown"],
    ["a bare value", "registered", "registered"],
    ["an empty object", {}, "none"],
  ])("writes %s", (_what, value, text) => {
    expect(changeValueText(value)).toBe(text);
  });

  it("counts the items of a long list past ten and cuts a long value", () => {
    expect(changeValueText({ remotes: Array.from({ length: 12 }, (_, i) => `r${i}`) })).toBe("remotes: r0, r1, r2, r3, r4, r5, r6, r7, r8, r9 and 2 more");
    const long = changeValueText({ note: "x".repeat(1000) });
    expect(long).toHaveLength(300);
    expect(long.endsWith("…")).toBe(true);
  });
});
