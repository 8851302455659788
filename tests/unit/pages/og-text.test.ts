import { describe, expect, it } from "vitest";
import { ogName, ogText } from "@/app/og/[...name]/og-text";

// The Open Graph image draws only what its bundled font holds: any other character makes the renderer fetch a
// font from the network with the listing's text (app/og/[...name]/og-text.ts). What it draws of a name must
// still not read as another server's name.
const DRAWN = /^[\u0020-\u007e\u00a0-\u00ff\u2013\u2014\u2018-\u201a\u201c-\u201e\u2022\u2026\u20ac\u2122\ufffd]*$/u;

describe("Open Graph text", () => {
  it("never hands the renderer a character its font lacks (Latin Extended, C1 controls, bidi, other scripts, emoji)", () => {
    for (const s of ["Āāǅ ĀāĂă", "a\u0085b\u009fc", "\u202Eevil\u202C\u200B", "天气 погода", "🚀 ‼ ↔", "\u0007x\u001b[31m"]) {
      expect(ogText(s, 80), s).toMatch(DRAWN);
      expect(ogName(`io.github.a/${s}`, 60), s).toMatch(DRAWN);
    }
  });

  it("keeps Latin-1 text and typographic punctuation as they are", () => {
    expect(ogText("Café “naïve” – 10 € • done…", 80)).toBe("Café “naïve” – 10 € • done…");
  });

  it("marks a name's undrawable characters instead of dropping them, so it cannot read as another name", () => {
    expect(ogName("io.github.acme/weatherЖ", 60)).toBe("io.github.acme/weather\ufffd");
    expect(ogName("io.github.аcme/weather", 60)).not.toBe("io.github.cme/weather");
    expect(ogName("io.github.acme/weather", 60)).toBe("io.github.acme/weather");
  });

  it("cuts long text with an ellipsis, by characters", () => {
    expect(ogText("x".repeat(100), 80)).toBe(`${"x".repeat(79)}…`);
    expect(Array.from(ogName(`io.github.a/${"名".repeat(100)}`, 60))).toHaveLength(60);
  });
});
