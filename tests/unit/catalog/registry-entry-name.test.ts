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
    // Postgres cannot store either; a name is who a server is, so it is not renamed to U+FFFD (below) either
    ["a NUL", "io.github.a/x\u0000y"],
    ["a lone surrogate", "io.github.a/x\ud800y"],
    ["a replacement character (what the crawl's answers hold in place of either)", "io.github.a/x\ufffdy"],
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

// Postgres refuses U+0000 in text and jsonb, and a lone surrogate in jsonb: one in any field failed the write of
// the whole listing (lib/db/storable-text.ts).
describe("normalizeRegistryEntry: text Postgres cannot store", () => {
  it("holds U+FFFD in place of a NUL or a lone surrogate, in every field and key, and hashes what it holds", () => {
    const bad = "a\u0000b\ud800c\udc00d";
    const stored = "a\ufffdb\ufffdc\ufffdd";
    const e = normalizeRegistryEntry({
      server: { name: "io.github.a/x", version: `1.0.0-${bad}`, title: bad, description: bad, packages: [{ registryType: "npm", identifier: bad }], _meta: { [bad]: [bad] } },
      _meta: { "io.modelcontextprotocol.registry/official": { statusMessage: bad } },
    });
    expect(e).toMatchObject({ version: `1.0.0-${stored}`, title: stored, description: stored, statusMessage: stored, packages: [{ identifier: stored }] });
    expect(e.document._meta).toEqual({ [stored]: [stored] });
    expect(JSON.stringify(e)).not.toMatch(/\\u0000|\\ud[89a-f]/i);
    // the entry as the storable text spells it is the same entry
    const same = normalizeRegistryEntry({
      server: { name: "io.github.a/x", version: `1.0.0-${stored}`, title: stored, description: stored, packages: [{ registryType: "npm", identifier: stored }], _meta: { [stored]: [stored] } },
      _meta: { "io.modelcontextprotocol.registry/official": { statusMessage: stored } },
    });
    expect(same.contentHash).toBe(e.contentHash);
  });

  it("keeps an entry that only spells one out", () => {
    expect(normalizeRegistryEntry({ server: { name: "io.github.a/x", version: "1.0.0", description: "strips \\u0000 from input" }, _meta: {} }).description).toBe(
      "strips \\u0000 from input",
    );
  });

  it("keeps a character outside the BMP (a surrogate pair) as it is", () => {
    expect(normalizeRegistryEntry(entry("io.github.a/x")).description).toBe("d");
    const e = normalizeRegistryEntry({ server: { name: "io.github.a/x", version: "1.0.0", description: "rocket \u{1F680}" }, _meta: {} });
    expect(e.description).toBe("rocket \u{1F680}");
  });
});
