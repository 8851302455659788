import { index, integer, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
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
    facts: jsonb("facts").notNull(),
    reasons: jsonb("reasons").notNull(),
    limitations: jsonb("limitations").notNull(),
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
