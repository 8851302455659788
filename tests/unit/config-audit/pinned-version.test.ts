import { describe, expect, it } from "vitest";
import { unevaluatedPin } from "@/lib/config-audit/pinned-version";
import type { EntryResolution } from "@/lib/config-audit/types";
import type { Facts } from "@/lib/engine";

const facts = (ecosystem: string, identifier: string, version: string | null) => ({ packages: [{ ecosystem, identifier, version }] }) as unknown as Facts;
const entry = (resolvedBy: "jspkg" | "pypkg" | "oci", identifier: string, version: string | null) =>
  ({ resolvedBy, identifier, identity: { version } }) as unknown as EntryResolution;

describe("unevaluatedPin", () => {
  it.each([
    ["jspkg", "good-mcp", "1.0.0", "1.0.0", null],
    ["jspkg", "good-mcp", "v1.0.0", "1.0.0", null],
    ["jspkg", "Good-MCP", "1.0.0", "1.0.0", null],
    ["jspkg", "good-mcp", "1.0.0+build.5", "1.0.0", null],
    ["jspkg", "good-mcp", "0.9.0", "1.0.0", "0.9.0"],
    ["jspkg", "good-mcp", "1.0.0-beta.1", "1.0.0", "1.0.0-beta.1"],
    ["jspkg", "good-mcp", "latest", "1.0.0", null],
    ["jspkg", "good-mcp", "^1", "1.0.0", null],
    ["jspkg", "good-mcp", "1.x", "1.0.0", null],
    ["pypkg", "pyco_fetch", "1.2", "1.2.0", null],
    ["pypkg", "pyco-fetch", "1.2.0", "1.2", null],
    ["pypkg", "pyco-fetch", "1.0rc1", "1.0", "1.0rc1"],
    ["pypkg", "pyco-fetch", "0.5.0", "1.0.0", "0.5.0"],
    ["pypkg", "pyco-fetch", ">=1.0", "1.0.0", null],
    // filled in at launch: any version may run
    ["jspkg", "good-mcp", "${VERSION}", "1.0.0", "${VERSION}"],
    ["jspkg", "good-mcp", "$VERSION", "1.0.0", "$VERSION"],
    ["pypkg", "pyco-fetch", "${env:V}", "1.0.0", "${env:V}"],
    ["pypkg", "pyco-fetch", "%V%", "1.0.0", "%V%"],
  ] as const)("%s %s@%s against listed %s → %s", (eco, id, pinned, listed, expected) => {
    const listedId = eco === "pypkg" ? "pyco-fetch" : "good-mcp";
    const pin = unevaluatedPin(entry(eco, id, pinned), facts(eco, listedId, listed));
    expect(pin?.pinned ?? null).toBe(expected);
  });

  it("says nothing without a listed version, for other kinds, or for another package", () => {
    expect(unevaluatedPin(entry("jspkg", "good-mcp", "0.9.0"), facts("jspkg", "good-mcp", null))).toBeNull();
    expect(unevaluatedPin(entry("oci", "acme/img", "0.9.0"), facts("oci", "acme/img", "1.0.0"))).toBeNull();
    expect(unevaluatedPin(entry("jspkg", "other-mcp", "0.9.0"), facts("jspkg", "good-mcp", "1.0.0"))).toBeNull();
    expect(unevaluatedPin(entry("jspkg", "good-mcp", "0.9.0"), undefined)).toBeNull();
  });
});
