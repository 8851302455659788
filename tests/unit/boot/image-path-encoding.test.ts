import { describe, expect, it } from "vitest";
import { escapeUndecodableImagePath } from "../../../scripts/unroutable-request.mjs";
import { nameFromRequestPath } from "@/lib/cards/links";

// A badge path that is not valid percent-encoding got Next's HTML 400 page, a broken image in a README. The
// listener escapes each such segment's "%" so that Next routes it; the route then reads the segment as it is.
const rewrite = (url: string) => {
  const req = { url };
  escapeUndecodableImagePath(req);
  return req.url;
};

describe("an image path that is not valid percent-encoding", () => {
  it("has each segment that does not decode escaped, the rest of the target kept", () => {
    expect(rewrite("/badge/io.github.acme/100%sure.svg")).toBe("/badge/io.github.acme/100%25sure.svg");
    expect(rewrite("/badge/io.github.acme/%E0%A4%A.svg?style=flat")).toBe("/badge/io.github.acme/%25E0%25A4%25A.svg?style=flat");
    expect(rewrite("/badge/a%41/%C3%28.svg")).toBe("/badge/a%41/%25C3%2528.svg");
    expect(rewrite("/og/io.github.acme/%zz.png")).toBe("/og/io.github.acme/%25zz.png");
    expect(rewrite("http://example.test/badge/x/%.svg#f")).toBe("http://example.test/badge/x/%25.svg#f");
  });

  it("reaches the route as the name the route would read from the original path", () => {
    for (const path of ["/badge/io.github.acme/100%sure.svg", "/badge/io.github.acme/%E0%A4%A.svg", "/badge/a%41/%C3%28.svg"]) {
      const url = `http://localhost${rewrite(path)}`;
      // Next decodes the rewritten path without error, and the route's one decoding gives the raw segment
      expect(() => decodeURIComponent(new URL(url).pathname)).not.toThrow();
      expect(nameFromRequestPath(url, "/badge/", ".svg")).toBe(nameFromRequestPath(`http://localhost${path}`, "/badge/", ".svg"));
    }
    expect(nameFromRequestPath(`http://localhost${rewrite("/badge/io.github.acme/100%sure.svg")}`, "/badge/", ".svg")).toBe("io.github.acme/100%sure");
  });

  it("leaves valid image paths, other paths and the API untouched", () => {
    for (const url of ["/badge/io.github.acme/100%25sure.svg", "/badge/io.github.acme/weather.svg?v=%zz", "/servers/acme/%zz", "/v1/%zz", "/badgex/%zz.svg", "/"]) {
      expect(rewrite(url), url).toBe(url);
    }
  });
});
