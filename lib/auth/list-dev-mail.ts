import { desc } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { devMailbox, type DevMailRow } from "@/lib/db/schema";

/** The newest messages of the dev mailbox (only written without SMTP). */
export async function listDevMail(limit = 20): Promise<DevMailRow[]> {
  const db = await getDb();
  return db.select().from(devMailbox).orderBy(desc(devMailbox.id)).limit(limit);
}

/** Loopback callers only, unless DEV_MAILBOX=1: the page hands out sign-in links. */
export function mailboxVisibleTo(socketIp: string | null): boolean {
  if (process.env.DEV_MAILBOX === "1") return true;
  if (socketIp === null) return true; // `next dev`: no socket header, a developer's own machine
  return socketIp === "::1" || socketIp.startsWith("127.") || socketIp === "::ffff:127.0.0.1" || socketIp.startsWith("::ffff:127.");
}
