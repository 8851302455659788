import type { Facts } from "../facts";

// Trust factors in the manner of OpenSSF Scorecard checks (STYLE.md): each is a small pure function of the
// facts and the time, returning the points it awards, the most it could award, and the evidence behind it.
// Evidence that was not observed earns no points and is said to be unknown, never guessed; a factor that
// does not apply to a server (say, advisories of a server that lists no package) earns none either and
// says so.

export const TRUST_PILLARS = ["identity", "maintenance", "adoption", "security"] as const;
export type TrustPillar = (typeof TRUST_PILLARS)[number];

/** Points each pillar can give; four pillars make the score 0–100. */
export const PILLAR_MAX = 25;

/** met: every point; partial: some; unmet: none, on evidence; unknown: none, for want of evidence. */
export const FACTOR_STATUSES = ["met", "partial", "unmet", "unknown", "not_applicable"] as const;
export type FactorStatus = (typeof FACTOR_STATUSES)[number];

export interface TrustFactor {
  factor: string;
  pillar: TrustPillar;
  points: number;
  max: number;
  status: FactorStatus;
  /** What the points rest on: the source, the values, and when they were observed. */
  evidence: string;
}

export interface FactorSpec {
  factor: string;
  pillar: TrustPillar;
  max: number;
  /** What it measures, for the documentation table. */
  measures: string;
  score: (facts: Facts, now: Date) => Omit<TrustFactor, "factor" | "pillar" | "max">;
}

export const DAY_MS = 86_400_000;

/** "(observed …)" or "(not observed; last attempt …)", for evidence strings. */
export function when(observedAt: string | null, attemptedAt: string | null = null): string {
  if (observedAt) return `observed ${observedAt}`;
  return attemptedAt ? `not observed; last attempt ${attemptedAt}` : "never observed";
}

export const met = (points: number, evidence: string) => ({ points, status: "met" as const, evidence });
export const partial = (points: number, evidence: string) => ({ points, status: "partial" as const, evidence });
export const unmet = (evidence: string) => ({ points: 0, status: "unmet" as const, evidence });
export const unknown = (evidence: string) => ({ points: 0, status: "unknown" as const, evidence: `unknown: ${evidence}` });
export const notApplicable = (evidence: string) => ({ points: 0, status: "not_applicable" as const, evidence: `not applicable: ${evidence}` });

export const isCheckedEcosystem = (ecosystem: string) => ecosystem === "jspkg" || ecosystem === "pypkg";

export function ageDays(iso: string | null, now: Date): number | null {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : (now.getTime() - t) / DAY_MS;
}

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
