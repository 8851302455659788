import { z } from "zod";
import { eq } from "drizzle-orm";
import type { Queryable } from "@/lib/db/client";
import { accounts } from "@/lib/db/schema";
import { ApiError } from "@/lib/api/errors";
import type { Tier } from "@/lib/config";
import { watchLimit } from "./create-watch";

export const grantWatchLimitInputSchema = z.strictObject({
  email: z.email().max(254),
  /** Active watches the account may have; null goes back to its tier's limit. */
  watch_limit: z.int().min(0).max(100_000).nullable(),
});
export type GrantWatchLimitInput = z.infer<typeof grantWatchLimitInputSchema>;

/**
 * Contract Limits: watches "free key 5, pro key 50, more by request". An operator grants an account its own
 * limit (or takes it back to the tier's); watches already active stay when it is lowered, creations wait.
 */
export async function grantWatchLimit(db: Queryable, input: GrantWatchLimitInput) {
  const email = input.email.trim().toLowerCase();
  const [row] = await db
    .update(accounts)
    .set({ watchLimit: input.watch_limit })
    .where(eq(accounts.email, email))
    .returning({ id: accounts.id, tier: accounts.tier, granted: accounts.watchLimit });
  if (!row) throw new ApiError("not_found", `no account with the e-mail address ${JSON.stringify(email)}`);
  return {
    ok: true as const,
    account_id: row.id,
    tier: row.tier,
    watch_limit: watchLimit(row.tier as Tier, row.granted),
    granted: row.granted !== null,
  };
}
