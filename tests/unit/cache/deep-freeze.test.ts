import { describe, expect, it } from "vitest";
import { deepFreeze } from "@/lib/cache/deep-freeze";

describe("deepFreeze", () => {
  it("freezes the value and everything reachable from it, and returns it", () => {
    const value = { a: { b: [1, { c: "x" }] }, d: null, e: "s" };
    expect(deepFreeze(value)).toBe(value);
    expect(Object.isFrozen(value)).toBe(true);
    expect(Object.isFrozen(value.a)).toBe(true);
    expect(Object.isFrozen(value.a.b)).toBe(true);
    expect(Object.isFrozen(value.a.b[1])).toBe(true);
    expect(() => {
      (value.a.b[1] as { c: string }).c = "y";
    }).toThrow(TypeError);
  });

  it("leaves primitives and null as they are", () => {
    expect(deepFreeze(3)).toBe(3);
    expect(deepFreeze(null)).toBe(null);
    expect(deepFreeze("x")).toBe("x");
  });
});
