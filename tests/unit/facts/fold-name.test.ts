import { describe, expect, it, vi } from "vitest";
import { foldName, foldNameSql } from "@/lib/facts/fold-name";
import { claimsOf, claimedTokens, derivedBrands, saysOfficial } from "@/lib/facts/brand-claims";
import { REVIEWED_BRANDS } from "@/lib/facts/brands";

describe("foldName: case, separators and homoglyphs", () => {
  it.each([
    ["weather-mcp", "weathermcp"],
    ["Weather_MCP", "weathermcp"],
    ["weather.mcp", "weathermcp"],
    ["weathеr-mcp", "weathermcp"], // Cyrillic е
    ["s1ack", "slack"],
    ["sIack", "slack"],
    ["slack", "slack"],
    ["g00gle", "google"],
    ["modern", "modem"], // rn reads as m
    ["vvidget", "wldget"], // vv reads as w; i and l are one letter
  ])("%s → %s", (input, folded) => {
    expect(foldName(input)).toBe(folded);
  });

  it("makes a pair drawn alike collide", () => {
    expect(foldName("vvidget")).toBe(foldName("widget"));
    expect(foldName("paypa1")).toBe(foldName("paypal"));
  });

  it("keeps names that differ in a real letter apart", () => {
    expect(foldName("weather-mcp")).not.toBe(foldName("leather-mcp"));
  });

  it("builds an SQL expression of the same table (checked against Postgres in the integration tests)", () => {
    const expr = foldNameSql("server_part");
    expect(expr).toMatch(/^regexp_replace\(replace\(replace\(translate\(lower\(server_part\)/);
    expect(expr).toContain("'rn', 'm'");
  });
});

describe("brand claims see through homoglyphs and split words", () => {
  const claims = (name: string, title: string | null = null, namespace = name.split("/")[0]) =>
    claimsOf(REVIEWED_BRANDS, { name, namespace, title }).map((c) => `${c.brand}:${c.verified_by_namespace}:${c.impersonation}`);

  it("reads str1pe, Strіpe (Cyrillic і) and git-hub as the brands", () => {
    expect(claims("io.github.evil/str1pe-payments")).toEqual(["Stripe:false:false"]);
    expect(claims("io.github.evil/payments", "Strіpe payments")).toEqual(["Stripe:false:false"]);
    expect(claimedTokens("git-hub tools").has("glthub")).toBe(true);
  });

  it("verifies a brand from its own namespace and flags an 'official' claim from another as impersonation", () => {
    expect(claims("com.stripe/mcp", "Stripe")).toEqual(["Stripe:true:false"]);
    expect(claims("io.github.evil/stripe-official")).toEqual(["Stripe:false:true"]);
  });

  it("reads a brand followed or joined by '!' or '|' in prose, which inside a word read as 'l' (s|ack)", () => {
    expect(claims("io.github.evil/payments", "Official Stripe!")).toEqual(["Stripe:false:true"]);
    expect(claims("io.github.evil/bridge", "Stripe|GitHub bridge")).toEqual(["GitHub:false:false", "Stripe:false:false"]);
    expect(claims("io.github.evil/chat", "s|ack and s!ack")).toEqual(["Slack:false:false"]);
  });

  it("claims nothing for names without brands", () => {
    expect(claims("io.github.acme/weather-mcp", "Weather")).toEqual([]);
  });

  it("reads fullwidth letters, accents, zero-width characters and a glued MCP as the brand", () => {
    expect(claims("io.github.evil/payments", "Ｓｔｒｉｐｅ")).toEqual(["Stripe:false:false"]);
    expect(claims("io.github.evil/payments", "Strípe")).toEqual(["Stripe:false:false"]);
    expect(claims("io.github.evil/payments", "Stri\u0301pe")).toEqual(["Stripe:false:false"]);
    expect(claims("io.github.evil/chat", "Sl\u200back")).toEqual(["Slack:false:false"]);
    expect(claims("io.github.evil/chat", "Sl\u00adack")).toEqual(["Slack:false:false"]);
    expect(claims("io.github.evil/StripeMCP")).toEqual(["Stripe:false:false"]);
    expect(claims("io.github.evil/githubmcp")).toEqual(["GitHub:false:false"]);
    expect(claims("io.github.evil/x", "GitHubMCP tools")).toEqual(["GitHub:false:false"]);
  });

  it("takes a brand as a word, never as part of one, and the namespace never claims", () => {
    expect(claims("io.github.evil/emotional-support")).toEqual([]);
    expect(claims("io.github.evil/stripes-and-dots")).toEqual([]);
    expect(claims("io.github.someone/weather", "Weather")).toEqual([]);
  });

  it("takes a common-word brand token only where the text names nothing else", () => {
    expect(claims("io.github.bob/algebra", "Linear algebra helper")).toEqual([]);
    expect(claims("io.github.bob/linear-regression")).toEqual([]);
    expect(claims("io.github.bob/linear-mcp", "Linear MCP server")).toEqual(["Linear:false:false"]);
  });

  it("never claims for the brand's own namespaces", () => {
    expect(claims("io.github.github/github-mcp-server", "Official GitHub MCP server")).toEqual(["GitHub:true:false"]);
    expect(claims("com.stripe.docs/stripe", "Official Stripe")).toEqual(["Stripe:true:false"]);
  });

  it("is impersonation only when 'official' says it of the listing, undenied", () => {
    expect(saysOfficial("Unofficial Stripe server", "name")).toBe(false);
    expect(saysOfficial("Stripe (non-official)", "name")).toBe(false);
    expect(saysOfficial("Not an official Stripe product", "description")).toBe(false);
    expect(saysOfficial("This isn't official", "name")).toBe(false);
    expect(saysOfficial("Stripe tools built on the official MCP TypeScript SDK", "description")).toBe(false);
    expect(saysOfficial("Real-time access to official SEC EDGAR filings", "description")).toBe(false);
    expect(saysOfficial("Official Egnyte MCP Server for AI integration", "description")).toBe(true);
    expect(saysOfficial("BrowserStack's Official MCP Server", "description")).toBe(true);
    expect(saysOfficial("Stripe (Official)", "name")).toBe(true);
    expect(saysOfficial("Ｏｆｆｉｃｉａｌ Stripe", "name")).toBe(true);
    const listing = { name: "io.github.evil/stripe-tools", namespace: "io.github.evil", title: null };
    expect(claimsOf(REVIEWED_BRANDS, { ...listing, description: "Uses the official Stripe API" })[0].impersonation).toBe(false);
    expect(claimsOf(REVIEWED_BRANDS, { ...listing, description: "The official Stripe MCP server" })[0].impersonation).toBe(true);
  });
});

describe("brand claims in the facts", () => {
  it("come in one order whatever the machine's locale: they are in the facts digest", () => {
    const brands = [...REVIEWED_BRANDS, { brand: "aarhus", tokens: ["aarhus"], namespaces: ["com.aarhus"] }];
    const listing = { name: "io.github.x/aarhus-zapier-anthropic", namespace: "io.github.x", title: null };
    const order = () => claimsOf(brands, listing).map((c) => c.brand);
    const here = order();
    // a server whose default locale is Danish, where "aa" sorts after "z"
    const danish = new Intl.Collator("da");
    const spy = vi.spyOn(String.prototype, "localeCompare").mockImplementation(function (this: string, that: string) {
      return danish.compare(this, that);
    });
    try {
      expect(order()).toEqual(here);
    } finally {
      spy.mockRestore();
    }
    // UTF-16 code unit order, as RFC 8785 sorts keys
    expect(here).toEqual(["Anthropic", "Zapier", "aarhus"]);
  });
});

describe("brands derived from the catalog's namespaces", () => {
  const rows = [
    { namespace: "live.alpic.staging", host: null, owner: null },
    { namespace: "ai.alpic.test", host: null, owner: null },
    { namespace: "com.xcodebuildmcp", host: "github.com", owner: "CameronCooke" },
    { namespace: "com.stripe", host: "github.com", owner: "stripe" },
    { namespace: "io.github.alice", host: "github.com", owner: "alice" },
  ];
  const derived = (r: typeof rows) => derivedBrands(r).slice(REVIEWED_BRANDS.length);

  it("one brand per label, verified by every domain with that label, in one order whatever the rows' order", () => {
    expect(derived(rows)).toEqual([
      { brand: "alpic", tokens: ["alpic"], namespaces: ["ai.alpic", "live.alpic"], githubOwners: [] },
      { brand: "xcodebuildmcp", tokens: ["xcodebuildmcp"], namespaces: ["com.xcodebuildmcp"], githubOwners: ["cameroncooke"] },
    ]);
    expect(derived([...rows].reverse())).toEqual(derived(rows));
  });

  it("a GitHub namespace whose login owns the repository the brand's domain lists is the brand's", () => {
    const brands = derivedBrands(rows);
    const claim = (name: string) => claimsOf(brands, { name, namespace: name.split("/")[0], title: null }).map((c) => `${c.brand}:${c.verified_by_namespace}`);
    expect(claim("io.github.cameroncooke/XcodeBuildMCP")).toEqual(["xcodebuildmcp:true"]);
    expect(claim("io.github.mallory/XcodeBuildMCP")).toEqual(["xcodebuildmcp:false"]);
    expect(claim("live.alpic.staging/alpic-poc")).toEqual(["alpic:true"]);
    expect(claim("com.evil/alpic-poc")).toEqual(["alpic:false"]);
  });
});
