import { desc } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { devMailbox, type DevMailRow } from "@/lib/db/schema";
import { trustProxy } from "@/lib/config";

/** The newest messages of the dev mailbox (only written without SMTP). */
export async function listDevMail(limit = 20): Promise<DevMailRow[]> {
  const db = await getDb();
  return db.select().from(devMailbox).orderBy(desc(devMailbox.id)).limit(limit);
}

/**
 * Loopback callers only, unless DEV_MAILBOX=1: the page hands out sign-in links. Behind a proxy we run
 * (TRUST_PROXY) the socket is the proxy's, so the client it forwards for must be on this machine too.
 */
export function mailboxVisibleTo(socketIp: string | null, forwardedFor: string | null = null): boolean {
  if (process.env.DEV_MAILBOX === "1") return true;
  if (forwardedFor !== null && trustProxy() && !isLoopback(forwardedFor.split(",")[0].trim())) return false;
  if (socketIp === null) return true; // `next dev`: no socket header, a developer's own machine
  return isLoopback(socketIp);
}

const isLoopback = (ip: string) => ip === "::1" || ip.startsWith("127.") || ip.startsWith("::ffff:127.");
