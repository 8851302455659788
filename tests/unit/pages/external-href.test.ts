import { describe, expect, it } from "vitest";
import { externalHref } from "@/app/_components/format";

// Repository, website, remote and evidence URLs come from listings anyone can publish: the server page links
// only http(s) ones. React defuses `javascript:` (into a link that throws when clicked) but not `data:`.
describe("externalHref", () => {
  it.each(["https://github.com/acme/weather", "http://example.com/x?y=1#z", "HTTPS://EXAMPLE.COM/"])("links %s", (url) => {
    expect(externalHref(url)).toBe(url);
  });

  it.each([
    "javascript:alert(1)",
    " JaVaScRiPt:alert(1)",
    "\tjava\nscript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "data:text/html;base64,PHNjcmlwdD5hbGVydCg2KTwvc2NyaXB0Pg==",
    "vbscript:msgbox(1)",
    "file:///etc/passwd",
    "git@github.com:acme/weather.git",
    "github.com/acme/weather",
    "",
    null,
    undefined,
  ])("does not link %j", (url) => {
    expect(externalHref(url)).toBeNull();
  });
});
