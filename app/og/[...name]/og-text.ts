// What the Open Graph image may draw of catalog text. The renderer (@vercel/og) bundles one font, Noto Sans in
// Google's "latin" subset; for any other character it fetches a font from fonts.googleapis.com at render time,
// the listing's text in the URL (and draws nothing for it when that fails). So the image keeps to the font.

/** The characters the bundled font draws (its cmap: Basic Latin, Latin-1, a few punctuation marks, U+FFFD). */
const DRAWN = /^[\u0020-\u007e\u00a0-\u00ff\u2013\u2014\u2018-\u201a\u201c-\u201e\u2022\u2026\u20ac\u2122\ufffd]$/u;

const clip = (t: string, max: number) => {
  const chars = Array.from(t);
  return chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : t;
};

/** A title or description: characters the font lacks are left out (a title in another script is not drawn). */
export function ogText(s: string, max: number): string {
  return clip(Array.from(s).filter((c) => DRAWN.test(c)).join("").trim(), max);
}

/**
 * A server name: each character the font lacks becomes U+FFFD, never dropped, or the image of
 * "io.github.acme/weatherЖ" would read as the real "io.github.acme/weather".
 */
export function ogName(name: string, max: number): string {
  return clip(Array.from(name, (c) => (DRAWN.test(c) ? c : "\ufffd")).join(""), max);
}
