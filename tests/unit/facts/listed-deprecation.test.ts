import { describe, expect, it } from "vitest";
import { listedVersionDeprecated } from "@/lib/facts/listed-deprecation";
import { advisoriesAreCurrent } from "@/lib/facts/listed-advisories";

const seen = (versions: Record<string, object>, latestVersion = "2.0.0") => ({ exists: true, observedAt: new Date("2026-03-01T00:00:00Z"), latestVersion, deprecated: null, versions });

// One view of what a listing pins (pinnedVersion, as the existence check reads it): a tag such as "latest"
// pins nothing, and a leading "v" is not part of the version.
describe("the listed version's deprecation and advisories read a tag or a leading v as the existence check does", () => {
  it("reads a tag as the registry's latest version", () => {
    const o = seen({ "1.0.0": {}, "2.0.0": { deprecated: "no longer maintained" } });
    expect(listedVersionDeprecated(o, "latest", "jspkg")).toBe(true);
    expect(listedVersionDeprecated(o, "auto", "jspkg")).toBe(true);
    expect(listedVersionDeprecated(o, null, "jspkg")).toBe(true);
    expect(listedVersionDeprecated(o, "1.0.0", "jspkg")).toBe(false);
  });

  it("leaves the latest version's deprecation unknown when the registry holds no record of it", () => {
    // npm: dist-tags.latest names 3.0.0, versions lacks it; PyPI: no info.version (latest null)
    expect(listedVersionDeprecated(seen({ "1.0.0": {}, "2.0.0": {} }, "3.0.0"), "latest", "jspkg")).toBeNull();
    expect(listedVersionDeprecated(seen({ "1.0.0": {}, "2.0.0": {} }, "3.0.0"), null, "jspkg")).toBeNull();
    expect(listedVersionDeprecated(seen({ "1.0.0": {}, "2.0.0": {} }, "3.0.0"), "3.0.0", "jspkg")).toBeNull();
    expect(listedVersionDeprecated({ ...seen({ "1.0": {} }), latestVersion: null }, "auto", "pypkg")).toBeNull();
    // a project-wide deprecation (PyPI's PEP 792 status) still speaks for a release without a record
    expect(listedVersionDeprecated({ ...seen({}), latestVersion: null, deprecated: "archived" }, "auto", "pypkg")).toBe(true);
  });

  it("finds a version listed with a leading v", () => {
    expect(listedVersionDeprecated(seen({ "1.2.0": { deprecated: "use 2" } }), "v1.2.0", "jspkg")).toBe(true);
  });

  it("takes a look-up of an unpinned listing as current only while it was made for the latest version", () => {
    const lookup = (queriedVersion: string) => ({ advisories: [], queriedVersion });
    expect(advisoriesAreCurrent("latest", lookup("latest"), "2.0.0")).toBe(false);
    expect(advisoriesAreCurrent("latest", lookup("2.0.0"), "2.0.0")).toBe(true);
    expect(advisoriesAreCurrent("1.0.0", lookup("1.0.0"), "2.0.0")).toBe(true);
  });
});
