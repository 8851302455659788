import { describe, expect, it } from "vitest";
import { listedVersionExists } from "@/lib/facts/listed-version-exists";

const LISTED = new Date("2026-03-01T00:00:00Z");
const AFTER = new Date("2026-03-02T00:00:00Z");
const BEFORE = new Date("2026-02-20T00:00:00Z");
const seen = (versions: Record<string, object> | null, observedAt = AFTER) => ({ exists: true, observedAt, versions });

describe("listedVersionExists", () => {
  it("is the package's own answer when it was not observed, is missing, or no version is pinned", () => {
    expect(listedVersionExists(null, "jspkg", "1.0.0", LISTED)).toBeNull();
    expect(listedVersionExists({ exists: false, observedAt: AFTER, versions: null }, "jspkg", "1.0.0", LISTED)).toBe(false);
    expect(listedVersionExists({ exists: null, observedAt: null, versions: null }, "jspkg", "1.0.0", LISTED)).toBeNull();
    for (const v of [null, "", "latest", "auto"]) expect(listedVersionExists(seen({ "0.1.0": {} }), "jspkg", v, LISTED), String(v)).toBe(true);
  });

  it("finds the pinned version among the registry's, with a leading v and PyPI's zero padding", () => {
    expect(listedVersionExists(seen({ "1.2.0": {} }), "jspkg", "1.2.0", LISTED)).toBe(true);
    expect(listedVersionExists(seen({ "1.2.0": {} }), "jspkg", "v1.2.0", LISTED)).toBe(true);
    expect(listedVersionExists(seen({ "1.0": {} }), "pypkg", "1.0.0", LISTED)).toBe(true);
    expect(listedVersionExists(seen({ "2.01.0": {} }), "pypkg", "2.1", LISTED)).toBe(true);
    // npm versions are exact strings: 1.0 is not 1.0.0 there
    expect(listedVersionExists(seen({ "1.0": {} }), "jspkg", "1.0.0", LISTED)).toBe(false);
  });

  it("says a pinned version is missing only when the registry was read after the listing; unknown before", () => {
    expect(listedVersionExists(seen({ "0.1.0": {} }), "pypkg", "9.9.9", LISTED)).toBe(false);
    expect(listedVersionExists(seen({ "0.1.0": {} }, BEFORE), "pypkg", "9.9.9", LISTED)).toBeNull();
    expect(listedVersionExists(seen({ "0.1.0": {} }), "jspkg", "9.9.9", null)).toBeNull();
    // a PyPI pre-release spelling is not normalised: unknown rather than a guessed "missing"
    expect(listedVersionExists(seen({ "1.0rc1": {} }), "pypkg", "1.0.0-rc.1", LISTED)).toBeNull();
    // an observation without its version list cannot tell
    expect(listedVersionExists(seen(null), "jspkg", "1.0.0", LISTED)).toBeNull();
  });
});
