import { z } from "zod";
import { CREDIT_COSTS } from "@/lib/config";
import { dateTimeSchema } from "./preflight";

// GET /v1/credits and catalog_credits: the wallet (contract: remaining, grant, purchased) and what it pays for.

const credits = z.number().int().nonnegative();

export const creditsResultSchema = z.strictObject({
  ok: z.literal(true),
  tier: z.enum(["registered", "pro"]),
  /** What is left of this month's grant plus purchased credits. */
  remaining: credits,
  /** This month's grant; unused grant does not carry over. */
  grant: credits,
  grant_remaining: credits,
  /** Purchased credits left; they never expire and are spent after the grant. */
  purchased: credits,
  period_start: dateTimeSchema,
  period_end: dateTimeSchema,
  costs: z.strictObject(Object.fromEntries(Object.keys(CREDIT_COSTS).map((k) => [k, credits])) as Record<keyof typeof CREDIT_COSTS, typeof credits>),
});
export type CreditsResultView = z.infer<typeof creditsResultSchema>;
