import { desc } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { devMailbox, type DevMailRow } from "@/lib/db/schema";
import { trustProxy } from "@/lib/config";
import { forwardedChain } from "@/lib/api/client-ip";

/** The newest messages of the dev mailbox (only written without SMTP). */
export async function listDevMail(limit = 20): Promise<DevMailRow[]> {
  const db = await getDb();
  return db.select().from(devMailbox).orderBy(desc(devMailbox.id)).limit(limit);
}

/**
 * Loopback callers only, unless DEV_MAILBOX=1: the page hands out sign-in links. Behind a proxy we run
 * (TRUST_PROXY) the socket is the proxy's, so the client it forwards for must be on this machine too: every
 * address of the chain, since all but the last are the client's own claim (a remote client sending
 * "x-forwarded-for: 127.0.0.1" arrives as "127.0.0.1, <its address>").
 */
export function mailboxVisibleTo(socketIp: string | null, forwardedFor: string | null = null): boolean {
  if (process.env.DEV_MAILBOX === "1") return true;
  if (forwardedFor !== null && trustProxy() && !forwardedChain(forwardedFor).every(isLoopback)) return false;
  // no socket header (lib/api/socket-ip.ts): `next dev` on a developer's own machine, or a production server not
  // started by scripts/server.mjs, where nothing says who is calling
  if (socketIp === null) return process.env.NODE_ENV !== "production";
  return isLoopback(socketIp);
}

const isLoopback = (ip: string) => ip === "::1" || ip.startsWith("127.") || ip.startsWith("::ffff:127.");
