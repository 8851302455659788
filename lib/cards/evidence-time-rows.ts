import type { HealthCard } from "@/lib/schemas/health-card";

export interface EvidenceTimeRow {
  label: string;
  /** When the source was last observed for this server (the oldest where several artifacts are involved). */
  at: string | null;
  /** `at`, or why there is none: the listing names nothing of that kind, or it was not observed yet. */
  text: string;
}

/**
 * The server page's "when each source was last observed" table. The card's evidence_times is null both when
 * a source was not observed and when there is nothing for it to observe; a page must not say "not observed"
 * of a repository, package or remote the listing never named.
 */
export function evidenceTimeRows(card: HealthCard): EvidenceTimeRow[] {
  const checked = card.packages.some((p) => p.ecosystem === "jspkg" || p.ecosystem === "pypkg");
  const row = (label: string, at: string | null, listed: boolean): EvidenceTimeRow => ({ label, at, text: at ?? (listed ? "not observed" : "none listed") });
  return [
    row("Registry listing", card.evidence_times.registry, true),
    row("Repository", card.evidence_times.repo, card.repository !== null),
    row("Packages", card.evidence_times.packages, checked),
    row("Vulnerability look-ups", card.evidence_times.vuln, checked),
    row("Liveness of remotes", card.evidence_times.liveness, card.remotes.length > 0),
  ];
}
