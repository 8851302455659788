import { desc } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { devMailbox, type DevMailRow } from "@/lib/db/schema";
import { trustProxy } from "@/lib/config";
import { forwardedChain } from "@/lib/api/client-ip";
import { socketIp } from "@/lib/api/socket-ip";

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

/**
 * mailboxVisibleTo for a request's headers. Behind a proxy both forwarding headers must name this machine: a proxy
 * that sets only X-Real-IP (nginx's usual `proxy_set_header X-Real-IP $remote_addr`) leaves X-Forwarded-For to
 * Next.js, which fills it in with the socket's address, the proxy's own loopback one.
 */
export function mailboxVisibleToRequest(h: { get(name: string): string | null }): boolean {
  const forwarded = [h.get("x-forwarded-for"), h.get("x-real-ip")].filter((v) => v !== null);
  return mailboxVisibleTo(socketIp(h), forwarded.length ? forwarded.join(", ") : null);
}

const isLoopback = (ip: string) => ip === "::1" || ip.startsWith("127.") || ip.startsWith("::ffff:127.");
