import type { Facts } from "./facts";
import { ADOPTION_FACTORS } from "./trust/adoption-factors";
import { IDENTITY_FACTORS } from "./trust/identity-factors";
import { MAINTENANCE_FACTORS } from "./trust/maintenance-factors";
import { SECURITY_FACTORS } from "./trust/security-factors";
import { PILLAR_MAX, TRUST_PILLARS, type FactorSpec, type TrustFactor, type TrustPillar } from "./trust/trust-factor";

export * from "./trust/trust-factor";
export { isPinnedVersion, listedVersion } from "./trust/security-factors";

/** Every factor, in the order a card lists them: by pillar, then as each pillar's file lists them. */
export const TRUST_FACTOR_SPECS: readonly FactorSpec[] = [...IDENTITY_FACTORS, ...MAINTENANCE_FACTORS, ...ADOPTION_FACTORS, ...SECURITY_FACTORS];

export interface TrustPillarScore {
  pillar: TrustPillar;
  points: number;
  max: number;
}

export interface TrustScore {
  /** 0–100: the sum of every factor's points. */
  score: number;
  factors: TrustFactor[];
  pillars: TrustPillarScore[];
}

/**
 * The trust score of DESIGN §6: pillars identity, maintenance, adoption and security, 25 points each; the
 * score is the plain sum of the factors' points, so every point is traceable to one factor and its evidence.
 */
export function computeTrustScore(facts: Facts, now: Date): TrustScore {
  const factors = TRUST_FACTOR_SPECS.map((spec) => {
    const r = spec.score(facts, now);
    const points = Math.max(0, Math.min(spec.max, Math.round(r.points)));
    return { factor: spec.factor, pillar: spec.pillar, points, max: spec.max, status: r.status, evidence: r.evidence };
  });
  const pillars = TRUST_PILLARS.map((pillar) => ({
    pillar,
    points: factors.filter((f) => f.pillar === pillar).reduce((n, f) => n + f.points, 0),
    max: PILLAR_MAX,
  }));
  return { score: pillars.reduce((n, p) => n + p.points, 0), factors, pillars };
}
