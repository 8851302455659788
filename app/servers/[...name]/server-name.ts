import type { HealthCard } from "@/lib/schemas/health-card";
import { decodeSegments, namePath } from "@/lib/cards/links";

/** The canonical name from the catch-all segments of /servers/<namespace>/<name> (the slash is part of it). */
export function nameFromSegments(segments: string[]): string {
  return decodeSegments(segments);
}

/** The Open Graph image of a server page (app/og/[...name]/route.tsx). */
export const ogImagePath = (name: string) => `/og/${namePath(name)}.png`;

/** A URL as a Markdown link target: a name's parentheses (encodeURIComponent keeps them) escaped, or the first ")" would end the link. */
const markdownTarget = (url: string) => url.replace(/\(/g, "%28").replace(/\)/g, "%29");

/** The README snippet: the badge image linking to the server page. */
export function badgeMarkdown(card: HealthCard): string {
  return `[![mcp preflight](${markdownTarget(card.links.badge)})](${markdownTarget(card.links.page)})`;
}

/** What a search result or link preview shows of a description; longer is cut with "…". */
export const META_DESCRIPTION_MAX = 300;

/**
 * The page's description, og:description and twitter:description: the baseline decision, then the listing's own
 * description, cut. A dump's description has no length limit, and the head carries this text three times.
 */
export function metaDescription(baselineDecision: string, card: Pick<HealthCard, "trust_score" | "health" | "description">): string {
  const text = `${baselineDecision} under baseline@1, trust score ${card.trust_score}/100, health ${card.health}. ${card.description ?? ""}`.trim();
  const chars = Array.from(text);
  return chars.length > META_DESCRIPTION_MAX ? `${chars.slice(0, META_DESCRIPTION_MAX - 1).join("")}…` : text;
}
