import { describe, expect, it } from "vitest";
import { badgePath, nameFromRequestPath, serverPagePath } from "@/lib/cards/links";

// A server name travels in a URL path with its slashes as separators (DESIGN §3); whatever else it holds must
// come back out as the same name, never cut at a "?" or "#" or decoded twice.
const ODD = ["io.github.owner/name", "io.github.o/a/b/c", "com.example/dots.and..dots", "io.github.o/ünï-名前", "io.github.o/sp ace?q=1#frag%2F&x=y"];

describe("server name paths", () => {
  it("leave an ordinary name as it is", () => {
    expect(serverPagePath("io.github.owner/name")).toBe("/servers/io.github.owner/name");
    expect(badgePath("io.github.owner/name")).toBe("/badge/io.github.owner/name.svg");
  });

  it("escape '?', '#', '&' and '%' so the whole name stays in the path", () => {
    const url = new URL(`http://x${serverPagePath("io.github.o/sp ace?q=1#frag%2F&x=y")}`);
    expect(url.search).toBe("");
    expect(url.hash).toBe("");
    expect(url.pathname).toBe("/servers/io.github.o/sp%20ace%3Fq%3D1%23frag%252F%26x%3Dy");
  });

  it("round-trip through the badge and Open Graph routes' reading of the raw path", () => {
    for (const name of ODD) {
      expect(nameFromRequestPath(`http://x${badgePath(name)}?style=flat`, "/badge/", ".svg"), name).toBe(name);
      expect(nameFromRequestPath(`http://x${serverPagePath(name).replace("/servers/", "/og/")}.png`, "/og/", ".png"), name).toBe(name);
    }
  });

  it("read nothing from a path without the suffix, and leave a malformed escape as it is", () => {
    expect(nameFromRequestPath("http://x/badge/io.github.owner/name", "/badge/", ".svg")).toBe("");
    expect(nameFromRequestPath("http://x/badge/io.github.owner/%E0%A4%A.svg", "/badge/", ".svg")).toBe("io.github.owner/%E0%A4%A");
  });
});
