import { index, integer, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { tstz } from "./columns";

/**
 * Preflight evaluations of authenticated callers, kept 90 days after completion
 * (the audit trail behind audit_id). Everything needed to re-run the decision
 * offline is stored: facts, reasons, digests, engine version, time.
 */
export const evaluations = pgTable(
  "evaluations",
  {
    id: uuid("id").primaryKey(),
    accountId: text("account_id").notNull(),
    keyId: text("key_id"),
    serverName: text("server_name").notNull(),
    policyId: text("policy_id").notNull(),
    policyRevision: integer("policy_revision").notNull(),
    decision: text("decision").notNull(),
    // JSON text exactly as the engine wrote it (facts: the RFC 8785 text its digest hashes), not jsonb: nothing
    // queries inside them, and parsing and compressing some 6 KB of jsonb was over a quarter of the database's work
    // per keyed preflight (docs/preflight.md, thirteenth session)
    facts: text("facts").notNull(),
    reasons: text("reasons").notNull(),
    limitations: text("limitations").notNull(),
    factsDigest: text("facts_digest").notNull(),
    policyDigest: text("policy_digest").notNull(),
    decisionInputDigest: text("decision_input_digest").notNull(),
    engineVersion: text("engine_version").notNull(),
    evaluatedAt: tstz("evaluated_at").notNull(),
    validUntil: tstz("valid_until").notNull(),
    completedAt: tstz("completed_at").notNull(),
  },
  (t) => [
    // GET /v1/evaluations: an account's newest first
    index("evaluations_account_idx").on(t.accountId, t.evaluatedAt),
    // the 90-day retention purge
    index("evaluations_completed_idx").on(t.completedAt),
  ],
);

export type EvaluationRow = typeof evaluations.$inferSelect;
