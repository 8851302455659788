import { describe, expect, it } from "vitest";
import { distinctAdvisories } from "@/lib/harvest/distinct-advisories";

const ALIASES: Record<string, string[]> = {
  "GHSA-a": ["CVE-1"],
  "PYSEC-1": ["CVE-1", "GHSA-a"],
  "GHSA-b": ["CVE-2"],
  // a chain: neither names the other, each names a third that names both
  "PYSEC-2": ["OSV-x"],
  "GHSA-c": ["OSV-y"],
  "OSV-x": ["OSV-y"],
};
const of = (id: string) => ALIASES[id] ?? [];

describe("distinctAdvisories", () => {
  it("keeps one id per flaw, the first in sort order, however the look-up listed them", () => {
    expect(distinctAdvisories(["PYSEC-1", "GHSA-b", "GHSA-a"], of)).toEqual(["GHSA-a", "GHSA-b"]);
    expect(distinctAdvisories(["GHSA-a", "PYSEC-1", "GHSA-a"], of)).toEqual(["GHSA-a"]);
  });

  it("joins ids linked only through another id of the look-up", () => {
    expect(distinctAdvisories(["PYSEC-2", "GHSA-c", "OSV-x"], of)).toEqual(["GHSA-c"]);
    // without the link, two flaws as far as anyone can tell
    expect(distinctAdvisories(["PYSEC-2", "GHSA-c"], of)).toEqual(["GHSA-c", "PYSEC-2"]);
  });

  it("counts an id whose record was never read on its own", () => {
    expect(distinctAdvisories(["GHSA-a", "PYSEC-9"], of)).toEqual(["GHSA-a", "PYSEC-9"]);
  });
});
