import { describe, expect, it } from "vitest";
import {
  auditExitCode,
  buildCatalogIndex,
  catalogQueryFor,
  classifyEntries,
  formatAuditText,
  hitsFromServers,
  parseConfig,
  resolveEntries,
} from "@/lib/config-audit";

const CATALOG = buildCatalogIndex(
  hitsFromServers([
    { name: "io.github.upstash/context7", packages: [{ ecosystem: "jspkg", identifier: "@upstash/context7-mcp" }], remotes: ["https://mcp.context7.com/mcp"] },
    { name: "app.linear/linear", remotes: ["https://mcp.linear.app/mcp", "https://mcp.linear.app/sse"] },
    { name: "io.github.getsentry/sentry-mcp", remotes: ["https://mcp.sentry.dev/mcp"] },
    { name: "io.github.github/github-mcp-server", remotes: ["https://api.githubcopilot.com/mcp/"], packages: [{ ecosystem: "oci", identifier: "ghcr.io/github/github-mcp-server:0.20.1" }] },
    { name: "io.github.awslabs/ecs", packages: [{ ecosystem: "pypkg", identifier: "awslabs.ecs-mcp-server" }] },
    { name: "io.github.mongodb-js/mongodb-mcp-server", packages: [{ ecosystem: "jspkg", identifier: "MongoDB-MCP-Server" }] },
    { name: "io.docker/sonarqube", packages: [{ ecosystem: "oci", identifier: "mcp/sonarqube:1.2" }] },
    { name: "ai.smithery/f4ww4z-mcp-mysql-server", remotes: ["https://server.smithery.ai/@f4ww4z/mcp-mysql-server/mcp"] },
    // two listings naming one package: the active one wins, the other is an alternative
    { name: "io.github.old/fetch", status: "deprecated", packages: [{ ecosystem: "pypkg", identifier: "mcp-server-fetch" }] },
    { name: "io.github.new/fetch", packages: [{ ecosystem: "pypkg", identifier: "mcp_server_fetch" }] },
    // two active listings naming one package, the later by name published more recently
    { name: "io.github.alpha/weather", publishedAt: new Date("2025-01-10T00:00:00Z"), packages: [{ ecosystem: "jspkg", identifier: "weather-mcp" }] },
    { name: "io.github.zeta/weather", publishedAt: new Date("2026-02-01T00:00:00Z"), packages: [{ ecosystem: "jspkg", identifier: "weather-mcp" }] },
    // two active listings of one image, publication unknown
    { name: "io.github.b/img", packages: [{ ecosystem: "oci", identifier: "docker.io/acme/img:1" }] },
    { name: "io.github.a/img", packages: [{ ecosystem: "oci", identifier: "acme/img" }] },
  ]),
);

function resolve(servers: Record<string, unknown>) {
  const parsed = parseConfig(JSON.stringify({ mcpServers: servers }));
  return resolveEntries(classifyEntries(parsed.entries), CATALOG);
}
const one = (e: unknown) => resolve({ e })[0];

describe("resolveEntries", () => {
  it("resolves by remote URL exactly (scheme and host case, trailing slash and fragment ignored)", () => {
    expect(one({ url: "HTTPS://MCP.Linear.app/mcp/#x" })).toMatchObject({ serverName: "app.linear/linear", resolvedBy: "remote_url", confidence: "high" });
    expect(one({ url: "https://api.githubcopilot.com/mcp" })).toMatchObject({ serverName: "io.github.github/github-mcp-server", confidence: "high" });
    expect(one({ command: "npx", args: ["-y", "mcp-remote", "https://mcp.linear.app/sse"] })).toMatchObject({ serverName: "app.linear/linear", resolvedBy: "remote_url" });
  });

  it("resolves a tenant path to the listed endpoint it extends, with medium confidence and a note", () => {
    const r = one({ type: "http", url: "https://mcp.sentry.dev/mcp/ferdi-fd/cape-gis" });
    expect(r).toMatchObject({ serverName: "io.github.getsentry/sentry-mcp", identifier: "https://mcp.sentry.dev/mcp", confidence: "medium" });
    expect(r.notes.join(" ")).toMatch(/prefix/);
    // never down to the bare host
    expect(one({ url: "https://mcp.sentry.dev/other" })).toMatchObject({ serverName: null, unresolved: { code: "not_in_catalog" } });
  });

  it("resolves npm names case-insensitively, PyPI names PEP 503-normalised, images by repository", () => {
    expect(one({ command: "npx", args: ["-y", "@upstash/context7-mcp@latest"] })).toMatchObject({ serverName: "io.github.upstash/context7", resolvedBy: "jspkg", identifier: "@upstash/context7-mcp" });
    expect(one({ command: "npx", args: ["mongodb-mcp-server"] })).toMatchObject({ serverName: "io.github.mongodb-js/mongodb-mcp-server" });
    expect(one({ command: "uvx", args: ["--from", "awslabs-ecs-mcp-server", "ecs-mcp-server"] })).toMatchObject({ serverName: "io.github.awslabs/ecs", resolvedBy: "pypkg" });
    expect(one({ command: "docker", args: ["run", "-i", "--rm", "mcp/sonarqube"] })).toMatchObject({ serverName: "io.docker/sonarqube", resolvedBy: "oci" });
    expect(one({ command: "docker", args: ["run", "-i", "ghcr.io/github/github-mcp-server"] })).toMatchObject({ serverName: "io.github.github/github-mcp-server", resolvedBy: "oci" });
  });

  it("keeps python -m matches at low confidence", () => {
    expect(one({ command: "python", args: ["-m", "awslabs.ecs_mcp_server"] })).toMatchObject({ serverName: "io.github.awslabs/ecs", confidence: "low" });
  });

  it("picks an active listing over a deprecated one and names the alternatives", () => {
    const r = one({ command: "uvx", args: ["mcp-server-fetch"] });
    expect(r).toMatchObject({ serverName: "io.github.new/fetch", alternatives: ["io.github.old/fetch"], confidence: "low" });
    expect(r.notes.join(" ")).toMatch(/ambiguous: 2 listed servers match mcp-server-fetch \(io.github.new\/fetch, io.github.old\/fetch\).*the active listing/);
  });

  it("reports a match the key does not decide as an ambiguous guess: the latest publication first, low confidence", () => {
    const r = one({ command: "npx", args: ["-y", "weather-mcp"] });
    expect(r).toMatchObject({ serverName: "io.github.zeta/weather", alternatives: ["io.github.alpha/weather"], confidence: "low" });
    expect(r.notes).toEqual([
      "ambiguous: 2 listed servers match weather-mcp (io.github.zeta/weather, io.github.alpha/weather) and the key names none of them; " +
        "verdict for io.github.zeta/weather, the listing whose latest version was published most recently, a guess (low confidence)",
    ]);
    // without publication dates the pick is by name, and still a guess
    const img = one({ command: "docker", args: ["run", "-i", "acme/img"] });
    expect(img).toMatchObject({ serverName: "io.github.a/img", alternatives: ["io.github.b/img"], confidence: "low" });
    expect(img.notes.join(" ")).toMatch(/^ambiguous: .*the first by name/);
    // a key naming one of them decides: not a guess
    const keyed = resolve({ "io.github.alpha/weather": { command: "npx", args: ["-y", "weather-mcp"] } })[0];
    expect(keyed).toMatchObject({ serverName: "io.github.alpha/weather", alternatives: ["io.github.zeta/weather"], confidence: "high" });
    expect(keyed.notes.join(" ")).not.toMatch(/ambiguous/);
  });

  it("resolves a Smithery name through its hosted endpoint", () => {
    expect(one({ command: "npx", args: ["-y", "@smithery/cli@latest", "run", "@f4ww4z/mcp-mysql-server"] })).toMatchObject({
      serverName: "ai.smithery/f4ww4z-mcp-mysql-server",
      resolvedBy: "remote_url",
      confidence: "medium",
    });
    expect(one({ command: "npx", args: ["@smithery/cli", "run", "@nobody/nothing"] })).toMatchObject({ serverName: null, unresolved: { code: "not_in_catalog" } });
  });

  it("uses a canonical-name key only when nothing is launched, and reports a key that names another server", () => {
    expect(resolve({ "io.github.upstash/context7": { enabled: true } })[0]).toMatchObject({ serverName: "io.github.upstash/context7", resolvedBy: "name", confidence: "medium" });
    // the key claims context7, but the entry runs an unlisted package: never resolved to the claimed name
    expect(resolve({ "io.github.upstash/context7": { command: "npx", args: ["-y", "context7-mcp-evil"] } })[0]).toMatchObject({
      serverName: null,
      unresolved: { code: "key_mismatch", summary: expect.stringContaining("io.github.upstash/context7") },
    });
    // the key claims one server, the package belongs to another: the package decides, with a note
    const r = resolve({ "app.linear/linear": { command: "npx", args: ["@upstash/context7-mcp"] } })[0];
    expect(r).toMatchObject({ serverName: "io.github.upstash/context7" });
    expect(r.notes.join(" ")).toMatch(/key names the catalog server app.linear\/linear/);
  });

  it("resolves a listed endpoint whose query or credentials hold a variable; one in the host or path stays a placeholder", () => {
    for (const url of ["https://mcp.linear.app/mcp?api_key=${LINEAR_KEY}", "https://mcp.linear.app/mcp?exaApiKey=${env:K}&profile=${input:p}", "https://${U}:${P}@mcp.linear.app/mcp"]) {
      expect(one({ url }), url).toMatchObject({ serverName: "app.linear/linear", resolvedBy: "remote_url", unresolved: null });
    }
    expect(one({ url: "https://${HOST}/mcp?k=1" })).toMatchObject({ serverName: null, unresolved: { code: "placeholder" } });
    expect(one({ url: "https://mcp.linear.app/${PATH}" })).toMatchObject({ serverName: null, unresolved: { code: "placeholder" } });
  });

  it("leaves unlisted, local, loopback and placeholder entries unresolved with their reason", () => {
    const r = resolve({
      a: { command: "npx", args: ["-y", "nobody-mcp"] },
      b: { command: "/usr/local/bin/server" },
      c: { url: "http://127.0.0.1:9000/mcp" },
      d: { url: "https://mcp.example.com/mcp" },
      e: { url: "${env:URL}" },
      f: { command: "docker", args: ["run", "-i", "someone/unlisted"] },
    });
    expect(r.map((x) => [x.serverName, x.unresolved?.code])).toEqual([
      [null, "not_in_catalog"],
      [null, "local_path"],
      [null, "loopback_url"],
      [null, "placeholder"],
      [null, "placeholder"],
      [null, "not_in_catalog"],
    ]);
  });

  it("asks the catalog only for what the entries need", () => {
    const parsed = parseConfig(JSON.stringify({ mcpServers: { "io.x/y": { command: "npx", args: ["A-Pkg"] }, b: { command: "uvx", args: ["My_Pkg"] }, c: { url: "https://h.dev/mcp/t" }, d: { command: "/bin/x" } } }));
    const q = catalogQueryFor(classifyEntries(parsed.entries));
    expect(q).toEqual({
      remoteUrls: ["https://h.dev/mcp/t", "https://h.dev/mcp/t/", "https://h.dev/mcp", "https://h.dev/mcp/"],
      jspkg: ["a-pkg"],
      pypkg: ["my-pkg"],
      oci: [],
      names: ["io.x/y"],
    });
  });
});

describe("auditExitCode and the text format", () => {
  it.each([
    [["PASS", "PASS"], false, 0],
    [[], true, 0],
    [["PASS", "REVIEW", "UNKNOWN"], false, 0],
    [["PASS", "REVIEW"], true, 2],
    [["UNKNOWN"], true, 2],
    [["REVIEW", "BLOCK"], false, 1],
    [["UNKNOWN", "BLOCK"], true, 1],
  ] as const)("%j strict=%s → %i", (verdicts, strict, code) => {
    expect(auditExitCode(verdicts, strict)).toBe(code);
  });

  it("writes one tab-separated line per entry, with control characters in keys flattened", () => {
    expect(
      formatAuditText([
        { verdict: "PASS", key: "ok", server_name: "io.github.a/b", reasons: [{ summary: "fine" }] },
        { verdict: "UNKNOWN", key: "we\tird\nkey", server_name: null, reasons: [{ summary: "no row" }] },
      ]),
    ).toBe("PASS\tok\tio.github.a/b\tfine\nUNKNOWN\twe ird key\t-\tno row\n");
  });
});
