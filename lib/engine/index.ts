// The pure decision engine: no I/O, no clock. See docs/decision-engine.md.
export * from "./types";
export * from "./facts";
export * from "./policies";
export * from "./ruleset";
export * from "./digest";
export * from "./engine-version";
export * from "./decision";
export * from "./evaluate";
export * from "./preflight-result";
export * from "./stamp";
export * from "./verify";
export { computeValidUntil, MAX_VALIDITY_MS } from "./valid-until";
export { buildLimitations } from "./limitations";
export { computeHealth, HEALTH_VALUES, HEALTH_PROBLEMS } from "./health";
export type { Health, HealthProblem, HealthResult } from "./health";
export { computeVerified, verifiedStatus, VERIFIED_STATUSES } from "./verified";
export type { VerifiedStatus } from "./verified";
export * from "./trust-score";
