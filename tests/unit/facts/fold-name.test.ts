import { describe, expect, it, vi } from "vitest";
import { foldName, foldNameSql } from "@/lib/facts/fold-name";
import { claimsOf, claimedTokens } from "@/lib/facts/brand-claims";
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
