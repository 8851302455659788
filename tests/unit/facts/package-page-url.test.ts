import { describe, expect, it } from "vitest";
import { packagePageUrl } from "@/lib/facts/package-page-url";

// The "source" link of a package's evidence and the package's link on the server page. The identifier comes from
// a listing anyone publishes: written into the URL as it is, "x/../legit" led to another package's page and
// "x?y#z" cut the path; a name the package registry could not hold gets no page.
describe("packagePageUrl", () => {
  it("links the names the registries hold, as their own pages write them", () => {
    expect(packagePageUrl("jspkg", "@acme/weather-mcp")).toBe("https://www.npmjs.com/package/@acme/weather-mcp");
    expect(packagePageUrl("jspkg", "JSONStream")).toBe("https://www.npmjs.com/package/JSONStream");
    expect(packagePageUrl("jspkg", "lodash.get")).toBe("https://www.npmjs.com/package/lodash.get");
    expect(packagePageUrl("pypkg", "mcp-server_x.y")).toBe("https://pypi.org/project/mcp-server_x.y/");
    expect(packagePageUrl("oci", "ghcr.io/acme/x")).toBeNull();
  });

  it.each([
    ["jspkg", "evil/../legit-package"],
    ["jspkg", "@evil/../../login"],
    ["jspkg", ".."],
    ["jspkg", "x?activeTab=versions"],
    ["jspkg", "x#readme"],
    ["jspkg", "<b>x</b>"],
    ["jspkg", "a/b/c"],
    ["pypkg", ".."],
    ["pypkg", "x/../y"],
  ])("gives no page for the %s identifier %j", (ecosystem, identifier) => {
    expect(packagePageUrl(ecosystem, identifier)).toBeNull();
  });
});
