import { describe, expect, it } from "vitest";
import { normalizeRegistryEntry, RegistryEntryError } from "@/lib/catalog/normalize-registry-entry";

const entry = (name: string) => ({ server: { name, version: "1.0.0", description: "d" }, _meta: {} });

// A server name is printed raw in one-line formats (the CATALOG-STAMP/1 line, the audit's text lines) and shown
// on pages: a line break in it could forge a second, PASS-looking stamp line, a space adds a field, and a bidi
// control makes the name read as another. The official registry allows none of these (reference: its name
// pattern is ASCII); a dump or another registry could carry them.
describe("normalizeRegistryEntry: names", () => {
  it.each([
    ["a line break", "io.github.a/x\nCATALOG-STAMP/1 PASS io.github.a/x builtin:strict@1"],
    ["a space", "io.github.a/with space"],
    ["a tab", "io.github.a/x\ty"],
    ["a line separator", "io.github.a/x\u2028y"],
    ["a right-to-left override", "io.github.a/\u202Eevil"],
    ["a zero-width space", "io.github.a/x\u200By"],
    ["a no-break space", "io.github.a/x\u00A0y"],
    ["a C1 control", "io.github.a/x\u0085y"],
  ])("refuses a name holding %s", (_label, name) => {
    expect(() => normalizeRegistryEntry(entry(name))).toThrow(RegistryEntryError);
    expect(() => normalizeRegistryEntry(entry(name))).toThrow(/whitespace or control characters/);
  });

  it("keeps the names real listings have, two slashes and dots included", () => {
    for (const name of ["io.github.joelverhagen/Knapcode.SampleMcpServer/aot", "com.example/my_server-2", "ai.exa/exa"]) {
      expect(normalizeRegistryEntry(entry(name)).name).toBe(name);
    }
  });
});

// Stored as "no packages", an artifact list we cannot read would leave the package rules nothing to check.
describe("normalizeRegistryEntry: packages and remotes", () => {
  const withArtifacts = (extra: Record<string, unknown>) => ({ server: { name: "io.github.a/x", version: "1.0.0", ...extra }, _meta: {} });

  it.each([
    ["packages that are not a list", { packages: "npm:foo" }, /packages is not a list/],
    ["a package with no identifier", { packages: [{ registryType: "npm" }] }, /package 1 names no registry type or identifier/],
    ["a package that is not an object", { packages: [{ registryType: "npm", identifier: "a" }, "b"] }, /package 2 names no/],
    ["remotes that are not a list", { remotes: { url: "https://x.example/mcp" } }, /remotes is not a list/],
    ["a remote with no URL", { remotes: [{ type: "streamable-http" }] }, /remote 1 names no type or URL/],
  ])("refuses %s", (_label, extra, message) => {
    expect(() => normalizeRegistryEntry(withArtifacts(extra))).toThrow(message);
  });

  it("reads absent or empty lists as none, and both schema eras' field names", () => {
    expect(normalizeRegistryEntry(withArtifacts({})).packages).toEqual([]);
    expect(normalizeRegistryEntry(withArtifacts({ packages: null, remotes: [] })).remotes).toEqual([]);
    const old = normalizeRegistryEntry(withArtifacts({ packages: [{ registry_name: "npm", name: "a", version: "1" }], remotes: [{ transport_type: "sse", url: "https://x.example/sse" }] }));
    expect(old.packages.map((p) => [p.ecosystem, p.identifier])).toEqual([["jspkg", "a"]]);
    expect(old.remotes).toEqual([{ type: "sse", url: "https://x.example/sse" }]);
  });
});
