import { describe, expect, it } from "vitest";
import { queryArtifacts, unwrapQuery } from "@/lib/search/query-artifacts";

describe("unwrapQuery", () => {
  it("takes off one pair of quotes, backticks or angle brackets around the whole text", () => {
    for (const q of ['"io.github.acme/x"', "'io.github.acme/x'", "`io.github.acme/x`", "<io.github.acme/x>", "“io.github.acme/x”", '" io.github.acme/x "']) {
      expect(unwrapQuery(q), q).toBe("io.github.acme/x");
    }
  });

  it("leaves quotes that are the text's own", () => {
    for (const q of ['"weather" forecasts', '"a" "b"', '""', '"', "x'y'", "<a> and <b>"]) expect(unwrapQuery(q), q).toBe(q);
  });
});

describe("queryArtifacts", () => {
  it("reads one word as a package identifier, a URL as a remote and, with host/owner/name, as a repository", () => {
    expect(queryArtifacts("@Acme/Pkg")).toEqual({ identifiers: ["@Acme/Pkg", "@acme/pkg"], repositoryUrl: null, remoteUrls: [] });
    expect(queryArtifacts("https://GitHub.com/Acme/Repo.git")).toEqual({
      identifiers: ["https://GitHub.com/Acme/Repo.git", "https://github.com/acme/repo.git"],
      repositoryUrl: "https://github.com/acme/repo",
      remoteUrls: ["https://GitHub.com/Acme/Repo.git"],
    });
    expect(queryArtifacts("github.com/acme/repo/")?.repositoryUrl).toBe("https://github.com/acme/repo");
    // a server name is not a repository (its namespace is no host with an owner and a name after it)
    expect(queryArtifacts("io.github.acme/weather-mcp")?.repositoryUrl).toBeNull();
    expect(queryArtifacts("https://mcp.example.com/mcp")?.repositoryUrl).toBeNull();
  });

  it("gives nothing for a query of words", () => {
    expect(queryArtifacts("weather forecasts")).toBeNull();
  });
});
