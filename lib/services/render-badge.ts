import { makeBadge } from "badge-maker";
import type { Queryable } from "@/lib/db/client";
import { BADGE_CACHE_SECONDS, BADGE_NOT_FOUND_CACHE_SECONDS, siteUrl } from "@/lib/config";
import { BASELINE_POLICY, computeHealth, decide, runRules, type Decision, type Health } from "@/lib/engine";
import { loadFacts } from "@/lib/facts/load-facts";
import { serverPagePath } from "@/lib/cards/links";
import type { CacheSeconds } from "@/lib/api/cacheable";

export const BADGE_STYLES = ["flat", "flat-square", "plastic", "for-the-badge"] as const;
export type BadgeStyle = (typeof BADGE_STYLES)[number];
export type BadgeShows = "decision" | "health";

export const BADGE_LABEL = "mcp preflight";

const DECISION_COLORS: Record<Decision, string> = { PASS: "brightgreen", REVIEW: "yellow", BLOCK: "red" };
const HEALTH_COLORS: Record<Health, string> = { healthy: "brightgreen", issues: "orange", unknown: "lightgrey" };

export interface Badge {
  status: 200 | 404;
  svg: string;
  /** The text the badge shows on its right, e.g. "PASS". */
  message: string;
  cache: CacheSeconds;
}

/**
 * The SVG badge of one exact server name (GET {site_url}/badge/<name>.svg): the baseline@1 decision by
 * default, or the card's health (`show=health`), linking to the server's page; for an unknown name a grey
 * "not in catalog" badge with status 404, so an embed never breaks. Unmetered: badges are fetched by every
 * view of the page that embeds them.
 */
export async function renderBadge(db: Queryable, name: string, opts: { show?: BadgeShows; style?: BadgeStyle; now?: Date } = {}): Promise<Badge> {
  const style = opts.style ?? "flat";
  const facts = name ? await loadFacts(db, name) : null;
  if (!facts) {
    return {
      status: 404,
      message: "not in catalog",
      svg: makeBadge({ label: BADGE_LABEL, message: "not in catalog", color: "lightgrey", style }),
      cache: { maxAge: BADGE_NOT_FOUND_CACHE_SECONDS, sMaxAge: BADGE_NOT_FOUND_CACHE_SECONDS },
    };
  }
  const now = opts.now ?? new Date();
  const page = `${siteUrl()}${serverPagePath(name)}`;
  let message: string;
  let color: string;
  if (opts.show === "health") {
    const { health } = computeHealth(facts, now);
    message = health;
    color = HEALTH_COLORS[health];
  } else {
    const decision = decide(runRules(facts, BASELINE_POLICY, now), BASELINE_POLICY);
    message = decision;
    color = DECISION_COLORS[decision];
  }
  const svg = withTitle(makeBadge({ label: BADGE_LABEL, message, color, style, links: [page, page] }), `${BADGE_LABEL}: ${message}`);
  return { status: 200, message, svg, cache: BADGE_CACHE_SECONDS };
}

const xmlEscape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * badge-maker leaves out the accessible name (role, aria-label, <title>) when the badge carries links;
 * put it back so screen readers and hover text still say what the badge shows.
 */
function withTitle(svg: string, text: string): string {
  if (svg.includes("<title>")) return svg;
  return svg.replace(/^<svg ([^>]*)>/, (_m, attrs: string) => `<svg ${attrs} role="img" aria-label="${xmlEscape(text)}"><title>${xmlEscape(text)}</title>`);
}

/** What an embed shows while the catalog cannot be read (503, not cached). */
export function unavailableBadge(): string {
  return makeBadge({ label: BADGE_LABEL, message: "unavailable", color: "lightgrey" });
}
