import { lt } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { sessions, verificationTokens } from "@/lib/db/schema";

/**
 * Daily upkeep: deletes sessions and sign-in links past their expiry. next-auth refuses both once expired,
 * but deletes a session only when its browser comes back, and an unused link never.
 */
export async function pruneExpiredSignIns(db: Db, now = new Date()): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expires, now));
  await db.delete(verificationTokens).where(lt(verificationTokens.expires, now));
}
