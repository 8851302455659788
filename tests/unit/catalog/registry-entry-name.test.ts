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

  // Every input naming a server takes at most 300 characters (interface.md, Limits): a longer name would be listed,
  // searched and shown, yet never looked up, preflighted or watched, and its cards would break the HealthCard schema.
  it("refuses a name longer than the 300 characters every API input takes, and keeps one of exactly 300", () => {
    const at = (n: number) => `io.github.a/${"x".repeat(n - "io.github.a/".length)}`;
    expect(normalizeRegistryEntry(entry(at(300))).name).toHaveLength(300);
    expect(() => normalizeRegistryEntry(entry(at(301)))).toThrow(/longer than 300 characters/);
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

// Postgres text and jsonb cannot hold U+0000: written, one such entry failed the whole listing's transaction, and
// recording that failure failed too (its message quotes the value), leaving the sync "running" for ever.
describe("normalizeRegistryEntry: NUL characters", () => {
  it.each([
    ["the title", { title: "a\u0000b" }],
    ["the description", { description: "\u0000" }],
    ["a package identifier", { packages: [{ registryType: "npm", identifier: "x\u0000", version: "1.0.0" }] }],
    ["a nested publisher field", { _meta: { "com.example/x": { notes: ["ok", "n\u0000"] } } }],
    ["a key", { "k\u0000": 1 }],
  ])("refuses an entry holding one in %s", (_label, extra) => {
    expect(() => normalizeRegistryEntry({ server: { name: "io.github.a/x", version: "1.0.0", ...extra }, _meta: {} })).toThrow(/NUL character/);
  });

  it("refuses one in the registry's own metadata (a status message)", () => {
    const official = { "io.modelcontextprotocol.registry/official": { status: "deprecated", statusMessage: "gone\u0000", isLatest: true } };
    expect(() => normalizeRegistryEntry({ server: { name: "io.github.a/x", version: "1.0.0" }, _meta: official })).toThrow(/NUL character/);
  });

  it("keeps an entry that only spells one out", () => {
    expect(normalizeRegistryEntry({ server: { name: "io.github.a/x", version: "1.0.0", description: "strips \\u0000 from input" }, _meta: {} }).description).toBe(
      "strips \\u0000 from input",
    );
  });
});
