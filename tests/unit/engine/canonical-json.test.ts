import canonicalize from "canonicalize";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jcsText } from "@/lib/engine/canonical-json";
import { buildFacts, jspkg, pypkg, remote } from "./facts-builder";

// jcsText must give exactly the `canonicalize` library's text (or throw as it throws) for every value.
function sameAsLibrary(value: unknown): void {
  let expected: { text: string | undefined } | { error: string };
  try {
    expected = { text: canonicalize(value) };
  } catch (err) {
    expected = { error: (err as Error).message };
  }
  if ("error" in expected) expect(() => jcsText(value)).toThrow(expected.error);
  else expect(jcsText(value)).toBe(expected.text);
}

// Member names that stress the ordering: integer-like ones, a leading digit, surrogates, `__proto__`, empty.
const memberName = fc.oneof(
  fc.string({ unit: "binary", maxLength: 6 }),
  fc.constantFrom("", "0", "1", "9", "10", "01", "1a", "__proto__", "toJSON", "constructor", "\ud800", "\udc00x", "é", "e\u0301", "😀", "z"),
);
const number = fc.oneof(fc.double(), fc.integer(), fc.constantFrom(-0, 1e21, 1e-7, 0.1 + 0.2, Number.MAX_SAFE_INTEGER, NaN, Infinity, -Infinity));
const leaf = fc.oneof(fc.string({ unit: "binary", maxLength: 12 }), number, fc.boolean(), fc.constant(null), fc.constant(undefined));
const { value } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: "small", withCrossShrink: true }, leaf, tie("array"), tie("object"), tie("nullProto")),
  array: fc.array(tie("value"), { maxLength: 5 }),
  object: fc.dictionary(memberName, tie("value"), { maxKeys: 6 }),
  nullProto: fc.dictionary(memberName, tie("value"), { maxKeys: 4 }).map((o) => Object.assign(Object.create(null), o)),
}));

describe("jcsText (RFC 8785 text, the library's for plain JSON data)", () => {
  it("gives the canonicalize library's text for generated JSON-like values", () => {
    fc.assert(fc.property(value, (v) => sameAsLibrary(v)), { numRuns: 3000 });
  });

  it("orders integer-like member names as JCS does, not as objects list them", () => {
    const v = { "9": 1, "10": 2, b: 3, a: { "2": true, "1x": false } };
    expect(jcsText(v)).toBe('{"10":2,"9":1,"a":{"1x":false,"2":true},"b":3}');
    sameAsLibrary(v);
  });

  it("gives the library's text for values a copy cannot carry exactly", () => {
    const proto = JSON.parse('{"__proto__": {"a": 1}, "b": 2}');
    const holes = [1, , 3]; // eslint-disable-line no-sparse-arrays
    class Box {
      constructor(readonly x = 1) {}
    }
    for (const v of [proto, holes, { d: new Date(0) }, { t: { toJSON: () => "x" } }, new Box(), { f: () => 1 }, { s: Symbol("s") }, [Symbol("s")], [() => 1]]) {
      sameAsLibrary(v);
    }
    expect(() => jcsText({ n: NaN })).toThrow();
    expect(() => jcsText([Infinity])).toThrow();
  });

  it("gives the library's text for facts as the engine builds them", () => {
    const facts = buildFacts({
      packages: [jspkg({ identifier: "@scope/pkg" }), pypkg({ identifier: "pkg", advisories: [{ id: "GHSA-1", summary: "x", severity: "high" }] })],
      remotes: [remote({ url: "https://example.com/mcp" })],
    });
    sameAsLibrary(facts);
    expect(JSON.parse(jcsText(facts)!)).toEqual(JSON.parse(JSON.stringify(facts)));
  });
});
